/**
 * Training sentences for the intent classifier (classifier.ts), written for it: the ways agents
 * actually type — English, Hinglish, the trade's slang and short forms, typos — split by speech
 * act, because a question about a payment or a limit must never be read as an order to write one.
 *
 * `q`: questions (interrogative, or a statement asking to be confirmed: "Tarun ne diya?").
 * `c`: requests to do or show something — imperatives, bare noun phrases ("expo Ind vs Pak"),
 * and indirect requests ("can you settle Gaurav?"), which are orders however politely put.
 *
 * Names are made up and varied on purpose, so that the model learns they are not intent words;
 * none of these wordings come from the public eval sets (the product is measured on unseen ones).
 */
export interface ParaphraseSet {
  q: readonly string[];
  c: readonly string[];
}

export const PARAPHRASES: Readonly<Record<string, ParaphraseSet>> = {
  pnl: {
    q: [
      'how much did Tarun make this week?', 'kitna profit hua aaj?', 'am I up or down on the Ind vs Pak game?',
      "what's Bhavesh's p n l for october?", "how's Jignesh doing this month?", 'did we lose money yesterday?',
      'whats my profit since monday', 'kitna loss hua Farhan pe last week?', 'how much have my guys won today?',
      'is Devika in profit or loss?', 'what was the result on RCB v KKR for me?', 'how are my earnings looking this month?',
      'net profit kya hai is hafte?', 'kitna kamaya is mahine?', 'how much did Zorawar lose on the derby?',
    ],
    c: [
      'pnl for Ishaan last 7 days', 'show profit loss for the week', 'p&l yesterday', 'Mohit ka profit loss dikhao',
      'give me my winnings for november', 'aaj ka pnl bata do', 'profit/loss on SRH vs DC', 'my p n l since the 1st',
      'pnl breakdown for Rakesh this month', 'show me the profits, last 30 days', 'plz send pnl for Pooja',
      'performance of Chirag this week', 'total pnl sab players ka', 'profitt for Ojas this week', 'net result for Keshav yesterday',
    ],
  },
  take: {
    q: [
      'how much is Harsh owing me?', 'who all still owe me?', 'kitna baaki hai Yusuf pe?', 'Ritu ka kitna udhaar hai?',
      "what's outstanding from Zubin?", 'does Lalit owe anything?', 'who has dues pending?', "what's the balance on Omkar's account?",
      'Parth se kitna lena hai?', 'how much do my players owe in total?', 'any receivables pending?', 'whats Gaurav ballance',
      'kis kis ka paisa baaki hai?', 'how much money is Vihaan holding of mine?',
    ],
    c: [
      'outstanding for Kunal', 'show dues', 'list everyone who owes me money', 'Manav ka balance batao', 'baaki amounts dikhao',
      'balances of all players', 'udhaar list bhejo', 'my take from Naveen', 'show receivable amounts', 'Tanvi ka lena dena batao',
      'pending dues for Hemant', 'total owed to me', 'Aarav ka khata dikhao', 'amount due from Ekta',
    ],
  },
  upline: {
    q: [
      'how much do I owe my master?', "what's my balance with the upline?", 'who is my parent agent?', 'kitna dena hai upar wale ko?',
      'what do we have to pay the super agent this week?', 'am I in credit or debit with my upline?', 'mera upline kaun hai?',
      'how much do I have to pay upstairs?', "what's my own balance?", 'do I owe my master anything?',
      'master ka kitna baaki hai mujhpe?', 'what is my headroom with the upline?', "who's above me?",
    ],
    c: [
      'show my upline', 'upline details', "my master's account", 'show what I owe upline', 'mera hisaab upline ke saath dikhao',
      'parent agent info', 'balance with superagent', 'my dues to the master', 'upline ka khata dikhao', 'display my own balance',
      'show my account with my parent', 'super agent balance pls', 'mujhe upar kitna dena hai batao',
    ],
  },
  credit_limit: {
    q: [
      "what's the CL on Jatin?", 'how much credit does Sameer have?', "is Tarun's limit 50k?", 'Bhavesh ka limit kitna hai?',
      'what is the min stake for Jignesh?', 'how much headroom does Nikhil have left?', "what's the max win per bet for Farhan?",
      'kya Devika ka credit 1 lakh hai?', 'what limits are set on Ishaan?', 'whats the daily win cap for Mohit?',
      'how much can Rakesh still bet?', 'is Pooja near her credit cap?', 'what limt does Chirag have', 'is Ojas capped at 20k?',
      'has Keshav got a 2 lakh CL?', 'Vihaan ki limit 30k hai kya?', "was Aarav's CL cut last month?",
    ],
    c: [
      'credit limit of Harsh', "show Yusuf's limits", 'CL for Ritu', 'Zubin ka credit limit dikhao', 'per click win for Lalit',
      'limits for all my players', 'available credit Omkar', 'credit cap of Parth', "show me Gaurav's min bet", 'Kunal ki limit batao',
      'check credit for Manav', 'adw limit Naveen', 'limits of Tanvi',
    ],
  },
  edit_limit: {
    q: ["should I raise Sameer's limit to 1 lakh?", 'kya Ekta ki limit badha doon?'],
    c: [
      "set Hemant's CL to 75k", 'increase Jatin credit limit to 2 lakh', 'Sameer ka limit 50k kar do', 'raise the credit cap for Tarun to 1.5 lakh',
      'cut Bhavesh limit to 20000', 'change min stake of Jignesh to 200', "make Nikhil's per click win 25k", 'limit badha do Farhan ka 1 lakh tak',
      "lower Devika's CL to 30k", 'update daily win limit for Ishaan to 5 lakh', "bump Mohit's credit to 80k", 'put Rakesh on 10k limit',
      'Pooja ki limit kam karo 40k', "halve Chirag's credit limit", "can you set Harsh's limt to 60k", 'please increase Yusuf credit to 90,000',
      "could you drop Ritu's CL to 15k?", 'give Zubin 1 lakh credit', 'reduce min bet for Lalit to 100', 'Omkar ka CL 2 lakh set karo',
      "adjust Parth's limit to 45k", "double Gaurav's credit limit", 'edit limit for Kunal, make it 35k', 'Manav ko 50k ki limit de do',
      'increase credit line of Naveen to 3L', "would you raise Tanvi's limit to 70k?",
    ],
  },
  settle: {
    q: ['should I settle Hemant today?', 'is it time to settle with Jatin?'],
    c: [
      'settle Hemant', 'settle up with Jatin', 'Sameer ka hisaab clear karo', "clear Tarun's account", 'collect 20k from Bhavesh',
      'mark Jignesh as settled', 'square off Nikhil', 'settle 15,000 with Farhan', 'Devika se 10k le liya, settle kar do',
      'do the settlement for Ishaan', 'sett Mohit for this week', 'pay out Rakesh', "close Pooja's hisaab", 'Chirag ka khata settle karo',
      'please settle Harsh for last week', 'setle Yusuf 5k', 'record payment of 25k from Ritu', 'Zubin paid 12k, settle it',
      'clear dues of Lalit', 'payout to Omkar 8000', 'settle karo Parth ko', 'can you settle Gaurav?', "square up Kunal's account",
      'full settlement for Manav', 'Naveen ka paisa clear kar do', "could you clear Tanvi's balance",
    ],
  },
  settlements: {
    q: [
      'has Hemant paid yet?', 'did Jatin send the cash?', 'kya Sameer ne payment kiya?', 'when did Tarun last pay?',
      'has Bhavesh cleared his dues?', 'did Jignesh settle last week?', 'what payments came in today?', 'Nikhil ne kitna diya is mahine?',
      'have I received anything from Farhan?', 'did Devika pay up yesterday?', 'kab settle hua tha Ishaan ka?',
      'has Mohit transferred the money?', 'did we get paid by Rakesh?', 'has Aarav sent the 10k?', 'Ekta ne paise bheje kya?',
      'did Vihaan give the money?', "was Ojas's payment received?", "were Keshav's dues cleared last week?",
    ],
    c: [
      'settlement history for Pooja', 'show past settlements', 'payments from Chirag last month', 'list transactions with Harsh',
      'Yusuf ki payment history dikhao', 'receipts this week', 'last 5 settlements', 'setlement log for Ritu', 'show who paid me this week',
      'settlement records with Zubin', 'ledger of payments for Lalit', 'payment list dikhao', 'all settlements in october',
    ],
  },
  exposure: {
    q: [
      "what's my expo on Ind vs Pak?", 'how exposed am I right now?', 'kitna risk hai RCB v KKR pe?', "what's the liability on the Arsenal game?",
      'how much risk am I carrying?', "what's the worst case on SRH vs DC?", 'whats my exposre', 'how much am I down if Pakistan win?',
      'what is my book looking like on Eng v NZ?', 'kitna expo hai abhi?', 'how much liability do we have live?',
      "what's the position on the Chelsea match?", "what's at risk on match odds for MI v RR?",
    ],
    c: [
      'exposure', 'live expo', 'show my book for CSK vs GT', 'liabilities on open markets', "risk on today's games", 'expo dikhao',
      'exposure on the over under 2.5 goals for Barca v Real', 'my positions right now', 'current exposure pls', 'Ind vs Aus ka risk batao',
      'show liability', 'net exposure on all matches', 'check exposure on PBKS v LSG',
    ],
  },
  commission: {
    q: [
      'how much comm did I earn this week?', "what's my commission for october?", 'kitna commission bana is mahine?',
      'what rebate did Tarun generate?', 'how much comission from Bhavesh?', 'what comm did Jignesh bring in yesterday?',
      'how much commission have we made since monday?', 'Nikhil se kitni comm aayi?', "what's my total rebate this month?",
      'did I get any commission today?', 'how much commision last week?', "what is Farhan's commission so far?", 'commission kitna hua aaj?',
    ],
    c: [
      'commission', 'comm for Devika', 'show commissions last month', 'my comm this week', 'Ishaan ka commission dikhao',
      'rebate earned from Mohit', 'commision yesterday', 'comm breakdown for november', 'total commissions since 1st',
      'commission for all players today', 'Rakesh comm last 7 days', 'show me the comms', 'aaj ki comm batao',
    ],
  },
  bets: {
    q: [
      'what bets has Hemant placed today?', 'any open bets on Ind vs Pak?', 'did Jatin bet on the RCB game?',
      'how many bets did Sameer place yesterday?', 'kya Tarun ne aaj bet lagaya?', 'which bets are still pending?',
      'what did Bhavesh punt on last night?', 'are there any void bets this week?', 'kitne bets lage aaj?', "what's Jignesh betting on?",
      'what tickets does Nikhil have open?', 'any big wagers from Farhan?', 'has Devika placed any bets since monday?',
    ],
    c: [
      'Ishaan ki bets dikhao', 'bet history for Mohit', 'last 10 bets', 'open bets', 'settled bets for Rakesh this week',
      'show wagers on CSK v GT', 'all running bets', 'Pooja ke unsettled bets', 'bet slips of Chirag', 'cancelled bets yesterday',
      'bets placed on Eng vs NZ', "show me Harsh's tickets", "list Yusuf's punts",
    ],
  },
  top_markets: {
    q: [
      'which markets are busiest today?', 'what are the hottest matches this week?', 'which games have the most volume?',
      'kaunse market sabse zyada chal rahe hain?', "what's the biggest market by turnover this month?",
      'which fixtures have the highest exposure?', 'which events made me the most profit this week?',
      'what are my top 3 matches by pnl?', 'which market has the heaviest trading today?', 'which matches got the most stakes today?',
      'what are the popular markets right now?', 'which games lost me the most this month?', 'top markets kaunse hain aaj?',
    ],
    c: [
      'top 5 markets today', 'the busiest markets of this week', 'biggest games by volume', 'most active markets', 'top matches by liability',
      'sabse bade markets dikhao', 'rank markets by turnover', 'hot markets this month', 'top 10 fixtures by stake',
      'highest volume events today', 'best performing markets by profit', 'most traded matches this week',
      'leaderboard of markets by exposure',
    ],
  },
  downline: {
    q: [
      'who is in my downline?', 'how many players have I got?', 'which sub agents are under me?', 'mere neeche kaun kaun hai?',
      'how many subagents report to me?', 'who are my clients?', 'how big is my network?', 'what does my hierarchy look like?',
      'kitne players hain mere paas?', 'which accounts are under Tarun?', 'who sits below me in the tree?',
      'how many active players do I have?', 'who all are my agents?',
    ],
    c: [
      'list out my players', 'show downline', 'my sub-agents', 'mere saare players dikhao', 'all my accounts', 'show the tree', 'list all clients',
      'downline structure', 'show players under Bhavesh', 'network view', 'sab agents ki list', 'display my hierarchy', 'my punters list',
    ],
  },
  hedge: {
    q: ['should I hedge Ind vs Pak?', 'is it worth hedging the RCB game?', 'do I need to lay off on CSK?'],
    c: [
      'hedge 20k on Pakistan in Ind vs Pak', 'lay off 10k on RCB', 'back Australia for 5000 in Ind v Aus match odds',
      'lay 15k on the draw in Arsenal vs Chelsea', 'place a bet of 25k on KKR to cover', 'hedge my expo on SRH vs DC with 30k on DC',
      'cover my position: back Eng 10k', 'Pakistan pe 20k ka hedge lagao', 'lay CSK 8000', 'put 12k back on Real Madrid',
      'hedge the over 2.5 for 5k in Barca v Real', 'place back bet 50k on India', 'please hedge 7k on NZ', 'hedj 10k on Gujarat',
      'lay off some of the liability on MI, 20k', 'back the draw for 3k in Liverpool v City', 'hedge karo 15k Australia pe',
      'can you lay 9k on RR in MI v RR?', 'place a lay bet 6k on Punjab', 'hedge 40,000 on Lucknow', 'cover 10k on England in Eng v SA',
      'lay 25k on under 2.5 goals Spurs v Everton', 'reduce my risk on Ind vs Pak by backing Pakistan 10k',
      'hedge it, 5k on the other side', 'place hedge bet 18k on Delhi', 'bet 10k on Aus to hedge',
    ],
  },
  mute_alerts: {
    q: [
      'are login alerts muted?', 'did I mute the big bet alerts?', 'can I stop getting settlement notifications?', 'why am I not getting login alerts?',
      'login alerts band hai kya?', 'kya large bet alerts mute kiye the?', 'is the big bet alert still snoozed?', 'when do my muted alerts come back?',
      'are approval notifications switched off?', 'maine login alerts band kiye kya?',
    ],
    c: [
      'silence login notifications', 'snooze big bet alerts for an hour', 'turn off login alerts', 'mute approval alerts till 9pm',
      'stop large bet notifications for 30 mins', 'unmute the login alerts', 'turn on big bet alerts again', 'mute market settled alerts',
      'login wale alerts band karo', 'bade bet ke alerts 8 baje tak band kar do', 'alerts chalu karo large bets', 'snooze approval notifications',
      'no more login pings today till 11pm', 'mute settled market alerts for 2 hrs', 'please mute big stake alerts', 'resume login notifications',
      'switch off large bet alerts till 7:30pm', 'mute alerts for large bets', 'disable player login alerts', 'unmute approvals',
      'settlement alerts band karo', 'quiet the big bet alerts till 10 pm', 'mute karo login alerts',
    ],
  },
  report: {
    q: ['can I get an excel of the settlements?', 'is there a pdf of last month pnl?'],
    c: [
      'export pnl per player to excel', 'download bets by match as pdf', 'make an xlsx of settlements for october',
      'need a pdf statement for Hemant', 'send me a spreadsheet of player pnl', 'Jatin ka statement nikalo', 'csv of all bets last week',
      'generate settlement log pdf', 'report of bets on Ind vs Pak', 'monthly report excel mein', 'pdf report for Sameer this month',
      'export settlements to sheet', 'create a p&l report for last week', 'can you make me a report of payments?',
      'prepare a per player report for november', 'download the bets sheet', 'reprot for pnl last month', 'excel bana do pnl ka',
      "give me a downloadable statement of Tarun's settlements", 'bets by match report for RCB v KKR',
      'I need the settlement statement as pdf', 'export player pnl', 'xlsx for last 30 days bets', 'report pls',
      "pdf of my players' results this week",
    ],
  },
  find_players: {
    q: [
      'is there a player called Tanmay?', 'do I have anyone named Kabir?', 'who is Rohan in my book?', 'any client called Mehul?',
      'kaun hai Jatin mere paas?', 'is Pranav one of mine?', 'do we have someone named Ayesha?', 'which players are called Dev?',
      'anybody called Bunty in my list?', 'koi Sahil hai kya?', 'is there a Sharma in my downline?', 'who all are named Amit?',
    ],
    c: [
      'find players called Nitin', 'search player Kapadia', 'look up Vedant', 'find Tushar', 'search for someone named Reema',
      'locate client Harpreet', 'players with Joshi in the name', 'find all named Sunny', 'Jignesh ko dhoondo', 'search Bhatia',
      'look up the guy called Monty', 'find account Zaheer', 'find user Preeti',
    ],
  },
  find_fixtures: {
    q: [
      'is there a match with Chelsea?', 'which games have Pakistan in them?', 'do we have the Lakers game?', 'any fixture for RCB today?',
      'is the Madrid match on the board?', 'kaunsa match hai India ka?', 'which events are with Federer?', 'is there a game for Punjab Kings?',
      'any matches with Liverpool this week?', 'do we list the Bulls game?', 'what fixtures has Arsenal got?', 'koi match hai England ka?',
    ],
    c: [
      'find the Chelsea match', 'search matches with Pakistan', 'look up the Lakers game', 'find fixture RCB', 'search games Madrid',
      'find the Federer match', 'locate the Punjab Kings game', 'search events with Liverpool', 'find match Bulls', 'look up fixture Arsenal',
      'England ka match dhoondo', 'search for the derby fixture', 'find games with Juventus',
    ],
  },
  greeting: {
    q: ['how are you?', 'kaise ho bhai?', "how's it going?", 'you there?'],
    c: [
      'hiya', 'hello hello', 'hey bro', 'good mrng', 'namaskar ji', 'thanks', 'thank you so much', 'cool cool, ok', 'gm all', 'yo', 'hii',
      'hello boss', 'thx', 'ok thnx', 'great, thanks', 'bye', 'see you later', 'good night all', 'shukriya', 'dhanyavaad', 'hey there',
      'morning boss!', 'hi assistant', 'ok got it', 'perfect thanks', 'theek hai',
    ],
  },
  capabilities: {
    q: [
      'what can you help me with?', 'what are you able to do?', 'how does this work?', 'what kind of things can I ask?',
      'what questions can you answer?', 'can you do settlements?', 'what features do you have?', 'kya kya kar sakte ho?',
      'tum kya karte ho?', 'which tools do you have?', 'how should I use you?', 'what commands are there?', 'what do you know about?',
    ],
    c: [
      'help', 'show me what you can do', 'list your features', 'help me out here', 'menu', 'commands list', 'guide me',
      'explain what you do', 'tell me your options', "I'm new here, help", 'options', 'madad chahiye', 'instructions please',
    ],
  },
  off_topic: {
    q: [
      "what's the weather in Delhi?", 'who won the election?', 'what time is it in London?', "what's the capital of Australia?",
      'who will win the world cup?', 'how do I make biryani?', "what's 15 times 12?", 'is the stock market up today?',
      'kal mausam kaisa rahega?', 'who is the best batsman ever?', "what's the score in Ind vs Pak?", 'when does IPL start?',
      'which phone should I buy?',
    ],
    c: [
      'crack a joke', 'write a poem', 'book a cab', 'play some music', 'translate hello to hindi', 'set an alarm for 6',
      'send a whatsapp to mom', 'order pizza', 'recommend a movie', 'gaana sunao', 'explain bitcoin', 'open youtube',
      'remind me to call Farhan',
    ],
  },
};

/**
 * Names for the lower-case copies of the sentences above: agents rarely capitalise, and a name the
 * model has seen under every intent is one it learns to ignore.
 */
export const NAME_POOL: readonly string[] = [
  'tarun', 'bhavesh', 'jignesh', 'nikhil', 'farhan', 'devika', 'ishaan', 'mohit', 'rakesh', 'pooja', 'chirag', 'harsh', 'yusuf',
  'ritu', 'zubin', 'lalit', 'omkar', 'parth', 'gaurav', 'kunal', 'manav', 'naveen', 'tanvi', 'hemant', 'jatin', 'sameer', 'ojas',
  'keshav', 'vihaan', 'aarav', 'ekta', 'zorawar', 'nandini', 'pritam', 'salim', 'bablu', 'gopal', 'meher', 'rustam', 'tejas',
];

/**
 * How the trade or the desk works, asked in general (the explanation head of classifier.ts): answered
 * from the glossary, never with anyone's figures. Every other sentence above is a counter-example.
 */
export const EXPLANATIONS: ParaphraseSet = {
  q: [
    'how does commission get decided on a winning market?', 'why does exposure go up when a big bet comes in?',
    'is exposure the same as what I will actually lose?', 'does available credit drop the moment a bet is placed?',
    'when does take go back to zero?', 'who pays commission, the player or me?', 'is commission taken on losing markets too?',
    'which figure should I trust, gross or my share?', 'is it normal for take to change after a match settles?',
    'does a lay bet need more credit than a back bet?', 'why is my share smaller than the gross figure?',
    'how does money move between me and my upline?', 'what decides how much of a loss comes to me?',
    'is a settlement the same thing as a market settling?', 'can take be negative, and what would that mean?',
    'does the credit limit stop a player from betting more?', 'how is liability on a lay bet worked out?',
    'why would exposure be higher than the credit limit?', 'what is the point of hedging a market?',
    'do limit changes happen at once or after I confirm?', 'is pnl counted before or after commission?',
    'should I worry when exposure swings during a live game?', 'what is the difference between what I owe and what I can bet?',
    'commission har bet pe lagta hai ya market ke net pe?', 'take kab zero hota hai?', 'exposure itna upar neeche kyun hota hai?',
    'upline ko paisa kaise jaata hai?', 'lay bet mein liability zyada kyun hoti hai?', 'share aur gross mein kaunsa dekhna chahiye?',
    'settle karne ke baad take ka kya hota hai?', 'CL kam karne se purane bets pe kya asar padta hai?',
    'how do the numbers on the exposure screen add up?', 'why does my take differ from my pnl?',
    'is a lay on one side the same as backing the other?', 'how do sub-agents get their cut?',
    'does a new credit limit apply to bets already placed?', 'do I have to confirm a settlement before it goes through?',
    'does a limit change take effect right away?', 'once I settle, does the player see it at once?',
    'limit badalne ke baad confirm karna padta hai kya?',
    'why does available go down as soon as a bet is placed?', 'why would take change when nobody paid anything?',
    'is commission worked out per market or per day?', 'is liability counted on open bets only?',
    'why does the worst case change when odds move?', 'is share applied before or after commission?',
    'why is gross bigger than what I keep?', 'does my upline see my players\' bets?', 'why can exposure be more than the stakes?',
    'does settling a player change his credit limit?', 'is the take reset at the end of the week?',
    'what makes exposure go down during a match?', 'how come my pnl is up but my take is not?',
    'are void bets counted in pnl?', 'does a hedge bet cost commission?', 'is the odds figure decimal or fractional here?',
    'commission kis pe lagta hai, jeet pe ya har bet pe?', 'exposure kam kab hota hai?', 'available kyun kam ho gaya bina loss ke?',
    'take aur pnl alag kyun dikhte hai?', 'hedge karne se commission lagta hai kya?',
    'is it normal for the take to jump after a big match?', 'should I be worried if exposure doubles in one over?',
    'is it usual for available credit to fall this fast?', 'is it bad if my worst case is bigger than my credit?',
    'kya ye normal hai ki exposure itna badal raha hai?',
  ],
  c: [
    'explain how commission works on a market', 'tell me how take moves up the chain', 'walk me through how exposure is worked out',
    'explain the difference between gross and my share', 'help me understand how a lay bet works', 'explain why take and pnl differ',
    'samjhao commission kaise lagta hai', 'exposure ka hisaab samjha do', 'explain how limits and available credit relate',
    'tell me what happens to take after a settlement',
  ],
};
