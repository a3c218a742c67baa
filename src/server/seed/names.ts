/**
 * Pools for the filler of the demo book. Whatever shares a word with a cast entity is dropped
 * when the book is generated (cast.json: a search for "Rahul" or "India" finds only the cast).
 */
export const FIRST_NAMES = [
  'Aarav', 'Aditi', 'Akash', 'Alok', 'Amrita', 'Ankur', 'Asha', 'Bhavna', 'Chetan', 'Dev', 'Divya', 'Gaurav',
  'Geeta', 'Harish', 'Hema', 'Jatin', 'Jaya', 'Kabir', 'Kavya', 'Kunal', 'Leela', 'Madhav', 'Manoj', 'Megha',
  'Nakul', 'Nandini', 'Nikhil', 'Nisha', 'Omkar', 'Pallavi', 'Paras', 'Preeti', 'Raghav', 'Ritu', 'Rohit', 'Sahil',
  'Sakshi', 'Tanvi', 'Tarun', 'Uday', 'Usha', 'Varun', 'Vidya', 'Yash', 'Zubin', 'Aniket', 'Bharat', 'Chitra',
  'Dhruv', 'Esha', 'Girish', 'Hitesh', 'Indu', 'Jai', 'Ketan', 'Lalit', 'Mitali', 'Naveen', 'Parth', 'Radhika',
  'Rekha', 'Sachin', 'Shweta', 'Tejas', 'Vaibhav', 'Yamini', 'Abhay', 'Bina', 'Darshan', 'Falguni', 'Hari', 'Ila',
  'Jignesh', 'Kiran', 'Mahesh', 'Naina', 'Ojas', 'Prakash', 'Ravi', 'Sunil', 'Trisha', 'Umesh', 'Vinod', 'Yogesh',
];

export const LAST_NAMES = [
  'Agarwal', 'Bhatia', 'Chopra', 'Dutta', 'Ganguly', 'Hegde', 'Jain', 'Kamath', 'Lal', 'Mishra', 'Naidu', 'Patil',
  'Reddy', 'Saxena', 'Thakur', 'Trivedi', 'Upadhyay', 'Vyas', 'Yadav', 'Bose', 'Chauhan', 'Deshpande', 'Gill',
  'Gokhale', 'Joshi', 'Kaul', 'Khatri', 'Mathur', 'Nayak', 'Oberoi', 'Pandey', 'Rathore', 'Sethi', 'Sinha',
  'Tandon', 'Varma', 'Wadhwa', 'Bajaj', 'Chawla', 'Dubey', 'Goel', 'Kohli', 'Luthra', 'Mahajan', 'Nagpal',
  'Puri', 'Rana', 'Sood', 'Talwar', 'Bakshi', 'Dhillon', 'Grover', 'Kapur', 'Mehra', 'Narang', 'Sabharwal',
];

export interface TeamPoolEntry {
  name: string;
  short: string[];
}

export const TEAM_POOLS: Record<'cricket' | 'football' | 'tennis', TeamPoolEntry[]> = {
  cricket: [
    { name: 'Pakistan', short: ['PAK'] }, { name: 'Sri Lanka', short: ['SL'] }, { name: 'Bangladesh', short: ['BAN'] },
    { name: 'West Indies', short: ['WI'] }, { name: 'Afghanistan', short: ['AFG'] }, { name: 'Ireland', short: ['IRE'] },
    { name: 'Zimbabwe', short: ['ZIM'] }, { name: 'Netherlands', short: ['NED'] }, { name: 'Delhi Capitals', short: ['DC'] },
    { name: 'Rajasthan Royals', short: ['RR'] }, { name: 'Gujarat Titans', short: ['GT'] }, { name: 'Lucknow Giants', short: ['LSG'] },
    { name: 'Sunrisers Hyderabad', short: ['SRH'] }, { name: 'Knight Riders Kolkata', short: ['KKR'] }, { name: 'Bengaluru Challengers', short: ['RCB'] },
  ],
  football: [
    { name: 'Liverpool', short: ['LIV'] }, { name: 'Everton', short: ['EVE'] }, { name: 'Tottenham', short: ['TOT'] },
    { name: 'Newcastle', short: ['NEW'] }, { name: 'Juventus', short: ['JUV'] }, { name: 'Napoli', short: ['NAP'] },
    { name: 'Inter Milan', short: ['INT'] }, { name: 'Bayern Munich', short: ['BAY'] }, { name: 'Dortmund', short: ['BVB'] },
    { name: 'Paris Saint-Germain', short: ['PSG'] }, { name: 'Atletico', short: ['ATM'] }, { name: 'Sevilla', short: ['SEV'] },
    { name: 'Ajax', short: ['AJA'] }, { name: 'Porto', short: ['POR'] }, { name: 'Benfica', short: ['BEN'] },
  ],
  tennis: [
    { name: 'Sinner', short: ['Jannik'] }, { name: 'Medvedev', short: ['Daniil'] }, { name: 'Zverev', short: ['Sascha'] },
    { name: 'Rune', short: ['Holger'] }, { name: 'Fritz', short: ['Taylor'] }, { name: 'Ruud', short: ['Casper'] },
    { name: 'Tsitsipas', short: ['Stefanos'] }, { name: 'Hurkacz', short: ['Hubert'] }, { name: 'Draper', short: ['Jack'] },
  ],
};

export const AGENT_FIRMS = [
  'Orbit', 'Summit', 'Harbor', 'Falcon', 'Lotus', 'Cedar', 'Monsoon', 'Saffron', 'Granite', 'Comet', 'Banyan', 'Sapphire',
  'Peacock', 'Tiger', 'Meridian', 'Pioneer', 'Aurora', 'Zenith', 'Coral', 'Vertex',
];
