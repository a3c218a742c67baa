/**
 * Pools for the filler of the demo book. Whatever shares a word with a cast entity is dropped
 * when the book is generated (cast.json: a search for "Rahul" or "India" finds only the cast).
 *
 * The filler must never answer for a name a user means as someone who is not in the book, so it
 * holds no name a person reaches for when they make one up: no everyday first names (Rohit, Ravi,
 * Sunil…), no everyday or famous surnames (Patel, Jain, Mishra, Kohli…), none that differ from a
 * cast name by a letter (Kapur, Varma, Mehra), and no real teams or players (Pakistan, Liverpool, Nadal…): "bal rohit" or "pl pak
 * vs sl" is "no player called …", not a filler account that happens to share the name.
 */
export const FIRST_NAMES = [
  'Aarav', 'Aditi', 'Alok', 'Amrita', 'Ankur', 'Bhavna', 'Chetan', 'Gunjan', 'Himadri', 'Jatin', 'Kabir', 'Kavya',
  'Kshitij', 'Lavanya', 'Madhav', 'Mrinal', 'Nakul', 'Nandini', 'Nachiket', 'Omkar', 'Pallavi', 'Paras', 'Pranjal', 'Ritwik',
  'Sakshi', 'Shaurya', 'Tanvi', 'Tanmay', 'Uday', 'Urvashi', 'Vedant', 'Vidya', 'Yuvika', 'Zubin', 'Aniket', 'Bhargav',
  'Chitra', 'Devansh', 'Dhruv', 'Esha', 'Eshwar', 'Girish', 'Hitesh', 'Indu', 'Ketan', 'Lalit', 'Mitali', 'Parth',
  'Radhika', 'Tejas', 'Vaibhav', 'Yamini', 'Abhay', 'Bina', 'Darshan', 'Falguni', 'Ila', 'Jignesh', 'Naina', 'Ojas',
  'Trisha', 'Chaitanya', 'Ishwari', 'Keertana', 'Manasi', 'Niranjan', 'Rutuja', 'Saumya', 'Tushar', 'Vallari', 'Anagha', 'Dhaval',
];

export const LAST_NAMES = [
  'Bhatia', 'Ganguly', 'Hegde', 'Kamath', 'Naidu', 'Upadhyay', 'Vyas', 'Deshpande', 'Gokhale', 'Kaul', 'Khatri', 'Mathur',
  'Nayak', 'Oberoi', 'Rathore', 'Sethi', 'Tandon', 'Wadhwa', 'Bajaj', 'Chawla', 'Goel', 'Luthra', 'Mahajan', 'Nagpal',
  'Sood', 'Talwar', 'Bakshi', 'Dhillon', 'Grover', 'Narang', 'Sabharwal', 'Kirloskar', 'Bhandarkar', 'Wagle', 'Vaidya', 'Sawhney',
  'Kakkar', 'Ahluwalia', 'Bhardwaj', 'Chandok', 'Dalmia', 'Jhaveri', 'Kothari', 'Lakhani', 'Mirchandani', 'Parekh', 'Shroff', 'Zaveri',
];

export interface TeamPoolEntry {
  name: string;
  short: string[];
}

export const TEAM_POOLS: Record<'cricket' | 'football' | 'tennis', TeamPoolEntry[]> = {
  cricket: [
    { name: 'Malabar Mariners', short: ['MMR'] }, { name: 'Deccan Drifters', short: ['DDR'] }, { name: 'Konkan Comets', short: ['KCM'] },
    { name: 'Thar Thunder', short: ['TTH'] }, { name: 'Nilgiri Knights', short: ['NKN'] }, { name: 'Vindhya Vipers', short: ['VVP'] },
    { name: 'Sundarban Tigers', short: ['SBT'] }, { name: 'Aravalli Eagles', short: ['AEG'] }, { name: 'Ganga Gladiators', short: ['GGL'] },
    { name: 'Narmada Nomads', short: ['NNM'] }, { name: 'Kaveri Kestrels', short: ['KVK'] }, { name: 'Satpura Stallions', short: ['SPS'] },
    { name: 'Chambal Chargers', short: ['CHC'] }, { name: 'Brahmaputra Bulls', short: ['BBU'] }, { name: 'Godavari Gales', short: ['GGA'] },
  ],
  football: [
    { name: 'Northvale Rovers', short: ['NVR'] }, { name: 'Eastbridge Athletic', short: ['EBA'] }, { name: 'Harrowgate United', short: ['HGU'] },
    { name: 'Westmoor City', short: ['WMC'] }, { name: 'Ashdown Albion', short: ['ADA'] }, { name: 'Redhill Rangers', short: ['RHR'] },
    { name: 'Foxborough', short: ['FXB'] }, { name: 'Millbrook Wanderers', short: ['MBW'] }, { name: 'Stonehaven Town', short: ['SHT'] },
    { name: 'Ravenmoor', short: ['RVM'] }, { name: 'Oakfield Olympic', short: ['OKO'] }, { name: 'Brackenridge', short: ['BRK'] },
    { name: 'Thornbury', short: ['TBR'] }, { name: 'Glenfield Athletic', short: ['GFA'] }, { name: 'Larkspur United', short: ['LKU'] },
  ],
  tennis: [
    { name: 'Halvorsen', short: ['Sindre'] }, { name: 'Okafor', short: ['Chidi'] }, { name: 'Marchetti', short: ['Enzo'] },
    { name: 'Lindqvist', short: ['Oskar'] }, { name: 'Varga', short: ['Bence'] }, { name: 'Castellanos', short: ['Mateo'] },
    { name: 'Novotny', short: ['Tomas'] }, { name: 'Kowalczyk', short: ['Piotr'] }, { name: 'Takahashi', short: ['Haruto'] },
  ],
};

export const AGENT_FIRMS = [
  'Orbit', 'Summit', 'Harbor', 'Falcon', 'Lotus', 'Cedar', 'Monsoon', 'Saffron', 'Granite', 'Comet', 'Banyan', 'Sapphire',
  'Peacock', 'Tiger', 'Meridian', 'Pioneer', 'Aurora', 'Zenith', 'Coral', 'Vertex',
];
