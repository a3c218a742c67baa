/**
 * The rule planner's reading of a message: the trade's synonyms folded to one word each, the
 * words the planner understands, and what is left over — the names of players and fixtures,
 * which only the search tools can tell apart. docs/intent-map.md lists all of it.
 */
import { AMOUNT_WORDS, type FoundAmount, findAmounts, numberWords } from '../../../shared/parse/amount.js';
import { distance } from 'fastest-levenshtein';
import { isTypoOf } from '../../../shared/fuzzy.js';
import { type FoundRange, findDateRange } from '../../../shared/parse/dates.js';
import type { IsoDate } from '../../../shared/dates.js';
import { COMMON_WORD_SLIPS, PLAIN_WORDS, REGIONAL_WORDS } from './plain-words.js';
import { foldSynonyms } from './synonyms.js';

/**
 * Hinglish and the trade's slang, word for word, to the domain word the intents read: "Rahul ka
 * udhaar" is his take, "expo" is exposure, "sett" is settle. docs/intent-map.md lists them.
 */
export const SLANG: Readonly<Record<string, string>> = {
  udhaar: 'outstanding', udhar: 'outstanding', udhari: 'outstanding', udhaari: 'outstanding', udhaariya: 'outstanding', chadha: 'outstanding', chadhe: 'outstanding', chadhi: 'outstanding', karza: 'outstanding', karz: 'outstanding', debt: 'outstanding', debts: 'outstanding', baaki: 'outstanding', baki: 'outstanding', bakaya: 'outstanding',
  // What is to be given (dena) and to be received (lena) stay apart: "mujhe kitna dena hai" is owed up the line.
  baqaya: 'outstanding', lena: 'receivable', dena: 'payable', lenadena: 'outstanding',
  // "kaun kitna dega mujhe" (who will give me) is owed to the user; "main dunga" (I will give) by them.
  dega: 'receivable', degi: 'receivable', dege: 'receivable', denge: 'receivable', dunga: 'payable', dungi: 'payable', doonga: 'payable',
  hisaab: 'balance', hisab: 'balance', khata: 'balance', khaata: 'balance', bal: 'balance',
  munafa: 'profit', profitable: 'profit', profits: 'profit', performing: 'performance', performer: 'performance', performers: 'performance', fayda: 'profit', faida: 'profit', kamai: 'profit', kamaya: 'profit', kamaaya: 'profit',
  nuksaan: 'loss', nuksan: 'loss', ghata: 'loss', ghaata: 'loss', haare: 'lost', haara: 'lost', haar: 'loss', jeeta: 'won', jeete: 'won', jeet: 'won', jeeti: 'won', jeetey: 'won', jita: 'won', jeeto: 'won', haari: 'lost', hare: 'lost',
  expo: 'exposure', expos: 'exposure', expsr: 'exposure', sett: 'settle', setl: 'settle', stl: 'settle', settl: 'settle',
  lim: 'limit', txn: 'transactions', txns: 'transactions', stmt: 'statement', comsn: 'commission', commsn: 'commission',
  khule: 'open', khula: 'open', chalu: 'open', lagaya: 'bets', lagaye: 'bets', lagayi: 'bets', daav: 'bets',
  // "biggest stakes on ind aus": stakes placed are bets ("stake" alone stays: "what stake?").
  stakes: 'bets', cap: 'limit', ceiling: 'limit', deposit: 'paid', deposited: 'paid', jama: 'paid', chukaya: 'paid', chukaye: 'paid',
  debtor: 'owes', debtors: 'owes', defaulter: 'owes', defaulters: 'owes', losers: 'losing', loser: 'losing', winners: 'won', winner: 'won',
  atm: 'now', exp: 'exposure', ping: 'send', fwd: 'forward', whatsapp: 'send', kamavla: 'profit', mkts: 'markets', mkt: 'market', sho: 'show', shoe: 'show', tke: 'take', tk: 'take',
  lw: 'last week', lwk: 'last week', recieved: 'received', recived: 'received', receved: 'received', recevied: 'received', setel: 'settle', setal: 'settle', settel: 'settle', setle: 'settle', clik: 'click', clck: 'click', klik: 'click',
  lenden: 'transactions',
  // Hindi as a Delhi bookie types it: "khuli bets", "kitne faayde me", "dalali kitni bani", "sabse oonche odds", "kya kya khela".
  khuli: 'open', khulli: 'open', faayde: 'profit', faayda: 'profit', fayde: 'profit', faide: 'profit', faaida: 'profit', faaide: 'profit',
  // Chat typing's dropped and doubled letters: "pnll", "opn bts", "lvie expo", "sbka", "mtlb kya h", "kr skta h", "smjha".
  pnll: 'pnl', pnnl: 'pnl', ppnl: 'pnl', bts: 'bets', bettz: 'bets', lvie: 'live', sbka: 'sabka', sbki: 'sabki', sbke: 'sabke', sbko: 'sabko',
  mtlb: 'matlab', mtlab: 'matlab', smjha: 'samjha', smjhao: 'samjhao', smjh: 'samajh', skta: 'sakta', skti: 'sakti', skte: 'sakte',
  // Words run together and autocorrect's damage: "lastweek", "showme", "abtk", "my pal this week" (P&L), "aaj ka expi".
  khoya: 'lost', khoye: 'lost', khoyi: 'lost', gawaya: 'lost', ganwaya: 'lost', gavaya: 'lost',
  // Team nicknames the trade uses: "the aussie game".
  aussie: 'aus', aussies: 'aus', ozzies: 'aus', fuly: 'fully', tek: 'take', jokhim: 'exposure', latka: 'atka', latke: 'atke', latki: 'atki',
  lastweek: 'last week', thisweek: 'this week', lastmonth: 'last month', thismonth: 'this month', nextweek: 'next week', showme: 'show me', tellme: 'tell me',
  giveme: 'give me', howmuch: 'how much', whatis: 'what is', abtk: 'ab tak', abtak: 'ab tak', pal: 'pnl', pbl: 'pnl', expi: 'exposure', expie: 'exposure',
  whts: 'whats', wats: 'whats', whch: 'which', wich: 'which', totl: 'total', mony: 'money', mak: 'make', weel: 'week', btao: 'batao', btana: 'batana',
  tem: 'team', agnt: 'agent', agnts: 'agents', plyer: 'player', plyers: 'players', plyr: 'player', plyrs: 'players', btwn: 'between', rkha: 'rakha', krwa: 'karwa', krwado: 'karwa do',
  // "fees from the winning players": the agent's fee is the commission.
  fees: 'commission', fee: 'commission',
  dalali: 'commission', dalaali: 'commission', oonche: 'unche', ooncha: 'uncha', oonchi: 'unchi', khela: 'bets', kheli: 'bets', khele: 'bets',
  // Chat shorthand of Hindi: "kl ka pnl", "setl kr do", "report bna do", "cl bda do", "lst wk", "n" for and.
  kl: 'kal', kr: 'kar', krna: 'karna', krni: 'karni', krne: 'karne', krke: 'karke', bna: 'bana', bnao: 'banao', bda: 'badha', bdha: 'badha', bdhao: 'badhao',
  lga: 'laga', lgaya: 'lagaya', lst: 'last', n: 'and', saude: 'bets', sauda: 'bets', saudey: 'bets', khulla: 'open', khulle: 'open',
  liab: 'liability', liabs: 'liabilities', opn: 'open', matchan: 'matches', matcha: 'matches', unpaid: 'outstanding', dues: 'outstanding',
  // Gujarati as a Mumbai or Surat bookie types it: the question words, "and", "till", "last",
  // the verbs of giving and doing, and the trade's own words (jokham is the risk, nafo the profit).
  kitlu: 'kitna', kitla: 'kitna', kitli: 'kitni', kitlo: 'kitna', ketlu: 'kitna', ketla: 'kitna', ketli: 'kitni', ketlo: 'kitna',
  ane: 'and', sudhi: 'tak', chhella: 'last', chhelle: 'last', chhelli: 'last', chhellu: 'last', chela: 'last', chele: 'last',
  divas: 'days', athavadiya: 'athvadiya', athavadiyu: 'athvadiyu', athavadiye: 'athvadiye',
  somvar: 'monday', mangalvar: 'tuesday', budhvar: 'wednesday', guruvar: 'thursday', shukravar: 'friday', shanivar: 'saturday', ravivar: 'sunday',
  kari: 'kar', nakh: 'do', nakho: 'do', eno: 'uska', eni: 'uski', enu: 'uska', ena: 'uske', etlu: 'utna', etla: 'utna', etli: 'utni',
  bane: 'dono', banne: 'dono', banav: 'banao', banavo: 'banao', banavi: 'banao', pacha: 'wapas', pachu: 'wapas', pachhu: 'wapas', pachha: 'wapas',
  kalak: 'ghante', kalaak: 'ghante', vadhari: 'badha', vadharo: 'badhao', vadhar: 'badha', ghatadu: 'reduce', ghatado: 'reduce', ghatadi: 'reduce', ghatad: 'reduce',
  vadhu: 'zyada', haaryo: 'lost', harya: 'lost', haarya: 'lost', jityo: 'won', jitya: 'won',
  aapya: 'diye', aapyu: 'diya', aapyo: 'diya', aapvana: 'payable', aapvanu: 'payable', aapvani: 'payable', levana: 'receivable', levanu: 'receivable', levani: 'receivable',
  mane: 'mujhe', mune: 'mujhe', sathe: 'se', pase: 'se', kyare: 'kab', shu: 'kya', jokham: 'exposure', nafo: 'profit', nafa: 'profit',
  // Punjabi as a Delhi or Punjab bookie types it, to the Hindi the rest of the planner reads: "da"
  // is "ka", "dasso" is "batao", "ohnu" is "usko", "ch" is "mein". The words that are Hindi words
  // too ("di", "de", "te", "ki", "hun", "aa") are decided by what stands around them (PUNJABI_IN_CONTEXT).
  da: 'ka', diyan: 'ki', dian: 'ki', dasso: 'batao', daso: 'batao', dass: 'batao', dasdo: 'batao', dassdo: 'batao', dasna: 'batana', dassi: 'batao',
  kinna: 'kitna', kinni: 'kitni', kinne: 'kitne', kinniyan: 'kitni', kinnian: 'kitni', ajj: 'aaj', aj: 'aaj', ch: 'mein', vich: 'mein', vi: 'bhi',
  ohnu: 'usko', onu: 'usko', ohnoo: 'usko', ohda: 'uska', ohdi: 'uski', ohde: 'uske', ehda: 'iska', ehdi: 'iski', ehde: 'iske', ehnu: 'isko',
  deyo: 'do', deo: 'do', dyo: 'do', diyo: 'do', deyie: 'dein', deyiye: 'dein', kadh: 'nikalo', kaddo: 'nikalo', kadho: 'nikalo', kad: 'kab', kadon: 'kab',
  kitti: 'kiya', kitte: 'kiye', hoya: 'hua', hoyi: 'hui', hoye: 'hue', hovega: 'hoga', hoyega: 'hoga', hunda: 'hota', hundi: 'hoti', hunde: 'hote',
  sakda: 'sakta', sakdi: 'sakti', sakde: 'sakte', kehda: 'kaunsa', kehdi: 'kaunsi', kehde: 'kaunse', kihda: 'kaunsa', kihdi: 'kaunsi', kehra: 'kaunsa', kehri: 'kaunsi',
  vadda: 'bada', vaddi: 'badi', vadde: 'bade', uchi: 'unchi', ucha: 'uncha', uche: 'unche', laggiyan: 'bets', laggian: 'bets', laggi: 'bets', lagge: 'bets',
  thalle: 'neeche', thale: 'neeche', khate: 'balance', kol: 'paas', naal: 'se', jitt: 'won', jitteya: 'won', chahida: 'chahiye', chahidi: 'chahiye', chahide: 'chahiye',
  mainu: 'mujhe', menu: 'mujhe', tenu: 'tujhe', tussi: 'aap', tusi: 'aap', sanu: 'hume', saade: 'humare', sadde: 'humare', paina: 'padega', vadha: 'badha', vadhao: 'badhao',
  // The master agent's trade words: "lagaan" is what was staked, "kat" the commission cut, "bhav" the rate.
  lagaan: 'bets', lagan: 'bets', kat: 'commission', katai: 'commission', bhav: 'odds', bhaav: 'odds', dabba: 'book',
  reha: 'raha', rehi: 'rahi', rehe: 'rahe', khada: 'atka', khade: 'atke', khadi: 'atki',
  fasya: 'fasa', phasya: 'fasa', ditta: 'diya', ditte: 'diye', aape: 'khud', puchho: 'pucho', layi: 'liye', bl: 'balance',
  // Tamil, Telugu and Kannada as a Chennai, Hyderabad or Bangalore agent types them, and Marathi as a
  // Mumbai one does, to the Hindi the planner reads: days and periods, who and whose, how much, the
  // verbs of showing, telling, giving and doing. Their short particles (ku, la, lo, oda, var) are plain
  // words (plain-words.ts), never names; "ee"/"ya"/"ha" before a period are "this" (REGIONAL_IN_CONTEXT).
  nethu: 'yesterday', ninna: 'yesterday', ninne: 'yesterday', innaiku: 'today', inniki: 'today', ivala: 'today', ivvala: 'today', ivattu: 'today',
  ippo: 'now', ippudu: 'now', ata: 'now', atta: 'now', pona: 'last', poina: 'last', ponna: 'last', gatha: 'last', hogida: 'last', maglya: 'last', magchya: 'last',
  vaaram: 'week', varam: 'week', vaara: 'week', aathvada: 'week', aathvadyat: 'week', athavdyat: 'week', aathavdyat: 'week', aathvadya: 'week', aathavda: 'week',
  maasam: 'month', masam: 'month', nela: 'month', mahinyat: 'month', mahinyacha: 'month', mahinyachi: 'month', mahinyache: 'month', mahinya: 'month',
  nundi: 'se', varaku: 'tak', paasun: 'se', kadun: 'se', madhe: 'mein', madhye: 'mein',
  avan: 'uska', avanoda: 'uska', avanukku: 'usko', aval: 'uski', avaloda: 'uski', avalukku: 'usko', vaadu: 'uska', vaadi: 'uska', vaadiki: 'usko', aame: 'uski',
  avanu: 'uska', avana: 'uska', avalu: 'uski', tyacha: 'uska', tyachi: 'uska', tyache: 'uske', tyachya: 'uske', tyala: 'usko', tyane: 'usne', ticha: 'uski', tichi: 'uski', tiche: 'uske', tila: 'usko', tine: 'usne',
  evlo: 'kitna', evvalavu: 'kitna', evalavu: 'kitna', entha: 'kitna', enta: 'kitna', eshtu: 'kitna', kiti: 'kitna', ethana: 'kitne', enni: 'kitne', yaaru: 'kaun', evaru: 'kaun',
  kay: 'kya', kaay: 'kya', konacha: 'kiska', konache: 'kiske', konachi: 'kiski', kona: 'kis', enna: 'kya', enti: 'kya', yenu: 'kya', eppadi: 'kaise', eppo: 'kab', eppudu: 'kab',
  sollu: 'batao', sollunga: 'batao', cheppu: 'batao', cheppandi: 'batao', helu: 'batao', sang: 'batao', saang: 'batao', sanga: 'batao',
  kaatu: 'dikhao', kaattu: 'dikhao', chupinchu: 'dikhao', chupinchandi: 'dikhao', chupi: 'dikhao', thorisu: 'dikhao', dakhav: 'dikhao', dakhva: 'dikhao', dakhava: 'dikhao', dakhvaa: 'dikhao',
  paaru: 'dekho', chudu: 'dekho', choodu: 'dekho', nodu: 'dekho', bagh: 'dekho', pannu: 'karo', pannunga: 'karo', pannidu: 'karo', cheyyi: 'karo', cheyi: 'karo', maadi: 'karo', kara: 'karo',
  anuppu: 'bhejo', pampu: 'bhejo', kalisu: 'bhejo', pathav: 'bhejo', paathav: 'bhejo', edu: 'nikalo', theeyi: 'nikalo', aachu: 'hua', ayindi: 'hua', aaytu: 'hua', zala: 'hua', jhala: 'hua', zali: 'hui',
  iruku: 'hai', irukku: 'hai', undi: 'hai', ide: 'hai', aahe: 'hai', ahe: 'hai', kuduthutta: 'diye', kuduthaan: 'diye', kuduthaanga: 'diye', ichadu: 'diye', ichindi: 'diye', dile: 'diye', bharle: 'diye', bharla: 'diye',
  vendam: 'mat', vaddu: 'mat', beda: 'mat', nako: 'mat', nakko: 'mat', thirumba: 'wapas', malli: 'wapas', parat: 'wapas', adhigam: 'zyada', ekkuva: 'zyada', jaasti: 'zyada', jast: 'zyada', jaast: 'zyada',
  kammi: 'kam', takkuva: 'kam', kami: 'kam', periya: 'badi', pedda: 'badi', dodda: 'badi', motha: 'bada', mothi: 'badi', mothe: 'bade', chinna: 'chhoti', mottham: 'total', motham: 'total', ellam: 'sab', sagle: 'sab', sagla: 'sab', saglya: 'sab',
  artham: 'matlab', arthama: 'matlab', appuram: 'phir', tarvata: 'phir', nantar: 'phir', aadhi: 'pehle', pramane: 'wise', vadhav: 'badhao', vadhva: 'badhao', vadhava: 'badhao', vadhvun: 'badhao',
  naavacha: 'naam ka', naavache: 'naam ke', naavachi: 'naam ki', aadnav: 'naam', konatya: 'kaunse', konta: 'kaunsa', konti: 'kaunsi',
  jinkla: 'won', jinkle: 'won', jinkli: 'won', haarla: 'lost', harla: 'lost', kamavle: 'profit', lavle: 'bets', lavla: 'bets', lavli: 'bets', aale: 'aaye',
  divsat: 'days', divsaat: 'days', taas: 'ghanta', taasa: 'ghante', taasancha: 'ghante', kon: 'kaun', keezha: 'neeche', kinda: 'neeche',
  ellarukum: 'everyone', ellarum: 'everyone', andariki: 'everyone', andaru: 'everyone', sarvanna: 'everyone', sarvana: 'everyone',
  enakku: 'mujhe', naaku: 'mujhe', nanage: 'mujhe', majhya: 'mere', majhe: 'mere', maze: 'mere', mazya: 'mere', maza: 'mera', adha: 'it', adhu: 'it', daanni: 'it', kaasu: 'paisa',
  navacha: 'naam ka', navache: 'naam ke', navachi: 'naam ki', koni: 'koi', kela: 'kiya', keli: 'kiya', kele: 'kiye', aala: 'aaya', aali: 'aayi', tharanum: 'owes', tharanam: 'owes', vaanganum: 'receivable',
  // Bengali as a Kolkata agent types it: days and periods, how much, the verbs of giving, showing and doing.
  ajke: 'today', aajke: 'today', kalke: 'yesterday', gotokal: 'yesterday', porshu: 'parso', ekhon: 'now', gato: 'last', gota: 'last', aager: 'last', ager: 'last',
  shoptaho: 'week', soptaho: 'week', shaptaho: 'week', saptaho: 'week', mash: 'month', maash: 'month', theke: 'se', porjonto: 'tak', obdhi: 'tak',
  koto: 'kitna', kotota: 'kitna', kobe: 'kab', kothay: 'kahan', kivabe: 'kaise', kibhabe: 'kaise', keno: 'kyun',   dekhao: 'dikhao', dekha: 'dikhao', bolo: 'batao', koro: 'karo', koren: 'karo', korun: 'karo', kore: 'kar', diyeche: 'diye', dilo: 'diye', diyechhe: 'diye',
  pathiyeche: 'bheje', pathalo: 'bheje', pathao: 'bhejo', hoyeche: 'hua', holo: 'hua', ache: 'hai', achhe: 'hai', chilo: 'tha', koreche: 'kiya', korechhe: 'kiya',
  barao: 'badhao', baraw: 'badhao', komao: 'reduce', sobcheye: 'sabse', shobcheye: 'sabse', beshi: 'zyada', boro: 'badi', khola: 'open', shesh: 'last', aar: 'aur',
  dujon: 'dono', dujoner: 'dono', sob: 'sab', shob: 'sab', taka: 'paisa', kache: 'se', amar: 'mera', amake: 'mujhe', amader: 'humara', oder: 'unka',
  // A new agent's phonetic English: "lass week", "giv me", "craddit limmit", "perr klik", "indya ostrelia".
  er: 'ka', der: 'ka', haarlo: 'lost', harlo: 'lost', jitlo: 'won', jitechhe: 'won', labh: 'profit', paona: 'receivable', dhaare: 'outstanding', dhar: 'outstanding',
  mitiyechi: 'settled', mitiyeche: 'settled', ghonta: 'ghanta', bondho: 'band', dui: 'dono', duto: 'dono', niche: 'neeche', modhye: 'mein', tofat: 'farak', tofaat: 'farak', parthokko: 'farak',
  khuje: 'dhundo', khujo: 'dhundo', hoy: 'hota', elo: 'aaya', dhonnobad: 'thanks', dhanyabad: 'thanks',
  exposer: 'exposure', exposr: 'exposure', lass: 'last', giv: 'give', hav: 'have', rite: 'right', hw: 'how', loose: 'lose', tommorow: 'tomorrow', tomorow: 'tomorrow', tommorrow: 'tomorrow',
  craddit: 'credit', kredit: 'credit', credt: 'credit', limmit: 'limit', limitt: 'limit', perr: 'per', indya: 'india', ostrelia: 'australia', ostralia: 'australia', austrelia: 'australia',
  commi: 'commission', commis: 'commission', kamishan: 'commission', kamisan: 'commission',
  wk: 'week', wks: 'weeks', wek: 'week', weks: 'weeks', wik: 'week', mnth: 'month', mth: 'month', yday: 'yesterday', yest: 'yesterday', ystrdy: 'yesterday', tdy: 'today', tday: 'today',
  // English as chat types it, spelt out, so that "wud hedging 10k cut my risk" asks as "would" does
  // and "shud i incrse it" asks advice: an unread modal must never leave a question looking like an order.
  wud: 'would', wld: 'would', cud: 'could', cld: 'could', shud: 'should', shld: 'should', shd: 'should', wht: 'what', wat: 'what', abt: 'about',
  enuf: 'enough', enuff: 'enough', shw: 'show', shwo: 'show', frm: 'from', wid: 'with', hv: 'have', bcoz: 'because', coz: 'because', cuz: 'because',
  fr: 'for', lemme: 'let me', gimme: 'give me', thru: 'through', tmrw: 'tomorrow', tmr: 'tomorrow', incrse: 'increase', incrs: 'increase',
  // "sab party ka udhaar": the trade calls a client a party.
  party: 'players', parties: 'players', partiyon: 'players', partiyan: 'players', parti: 'players',
  decrse: 'decrease', reduse: 'reduce', rduce: 'reduce', chnge: 'change', chng: 'change',
};

/** Words that carry no slot: grammar, politeness, the assistant's own vocabulary. */
const STOPWORDS = new Set(`
a an the this that these those my me mine i im i'm ive we us our ours you your yours yourself he him his she her hers they them their it its
is are was were be been being am do does did done doing have has had having will would shall should can could may might must
what whats which who whom whose where when why how hows howmuch much many any some all every each either both
of for to from in on at by with about as into onto over under than then so too very just only also again still yet
and or but not no nor if please pls plz kindly thanks thank thx ok okay hey hi hello yo namaste hii
show tell give get fetch find list see view check display pull bring open look let lets know want need like
total overall entire whole full current latest live recent updated update now today tonight
amount figure figures number numbers value values sum details detail info information data summary breakdown status
per each player players account accounts client clients customer customers punter punters user users agent agents
money cash points pts point rs inr rupees bucks
whose there here up down out off back go going got gone
much more most less least lot lots bit
did made make making earn earned earning
right now yet ever never always same other another else
ya yeah yes sure cool great nice fine good bad
generate create prepare build send email share forward forwarded mail run produce compile make draft export exported
format file document copy version
quick quickly briefly fast asap urgent urgently immediately also just
between during since until till after before within across around
say said tell told ask asked think guess compare compared comparing comparison net gross goes went wrong right
it's thats there's what're whats whos wheres whens theyre youre plus
refresh refreshed reload reloaded guy guys person people banda bande
sent cleared received transferred bheja bheje bheji older oldest newer earlier
already enough anyway anyhow maybe perhaps please really still even ever soon later lately yet though although because since
again almost also always another around away back besides else elsewhere further however indeed instead meanwhile
more moreover much nearly never next now often once only otherwise perhaps quite rather seldom sometimes somewhat soon
than then there thereafter therefore thus together too towards upon usually very well whatever whenever wherever whether
while whole within without would could should might must shall ought able about above across after against along among
wth wid frm abt tht ths wat wht hw ur thnx tnx bcoz coz cuz nd shw gimme lemme wanna gonna gotta pls plz ya yep nope
everything anything something nothing someone anyone
via using use only ones one placed place here doing

day days week weeks month months year years
ka ke ki ko se ne hai hain tha the thi aur bhi bhai yaar abhi sab sabka sabke sabki sabhi mera meri mere apna apne apni wala wale wali vala vale
kaun kon kya kab kaise kitna kitne kitni nahi na toh par pe mein jo woh wo yeh ye kuch zyada jyada sabse bahut thoda kar karo kardo krdo kro
de dedo diya diye di hua hui hue raha rahe rahi gaya gaye liya liye chahiye dikhao dikha dikhana batao bata bolo bhejo dekho dekhna
aaj kal parso hafte hafta mahine mahina din saal pichle pichla agle is us ab tak usse isse pehle baad phir fir tarikh tareekh tarik taarikh tareek
humne hamne maine mene tumne aapne usne unhone isne inhone hamara hamare hamari humara humare humari tera tere teri dono teeno
aaya aaye aayi aya aye ayi aata aati aate huye hoon milake milaake milakar milkar milaakar saara saare saari kul jodke jod
bana bane bani banaya lage laga lagi lagaye kis kiska kiske kiski kisko kisne bada badi bade chota choti chote koi mr mrs ms miss sahab saab madam sir morning evening night afternoon tonight noon
fresh new old big small large huge tiny usual usually regular normal few several last first next previous prior recent
instead ahead hasnt havent didnt doesnt isnt wasnt arent dont cant wont
smallest largest biggest highest lowest most least best worst top bottom
looking look going doing looks pretty really actually basically exactly roughly approx approximately
rn asap pls plz thx ty
`.split(/\s+/).filter(Boolean));

/** A word of grammar, chat or pronoun: never the slip or the correction of a name. */
export const isGrammarWord = (w: string) => STOPWORDS.has(w) || EVERYDAY.has(w) || PRONOUNS.has(w);

/**
 * Everyday words of chat that are never anyone's name here: "show the important bets", "where do we
 * stand on exposure", "is Irfan allowed 1 lakh", "settle karan fully", "hmm, 6k rather". A word
 * the planner does not know is otherwise read as a name and searched for, which ends in "no player
 * called …". Left out on purpose: words that are also teams or common nicknames (real, rose,
 * lucky, sunny, will, mark), and intent words. One of these typed with a capital inside a sentence
 * is still read as a name ("balance of Sterling"), so a player whose name is an everyday word can
 * be asked about.
 */
export const EVERYDAY: ReadonlySet<string> = new Set(`
hmm hmmm hm umm um uh uhh er erm ah oh ohh ooh wow oops huh nah naah nahh alright aight okk okie achha theek thik
important importantly urgent serious sensible reasonable fair safe unsafe high higher low lower heavy heavier light huge massive major minor
main key exact rough proper correct wrong decent okayish terrible awful poor early late final complete partial full empty simple easy
hard tough strange weird odd unusual typical special general specific particular various certain possible impossible likely unlikely
interesting interested worried sad glad sorry busy free ready done finished pending usual usually
fully completely totally entirely exactly properly actually basically honestly seriously literally probably definitely certainly surely
quickly slowly clearly simply finally recently lately currently already soon once twice together alone further forward aside
anymore altogether nearly barely hardly mostly mainly generally normally especially particularly specifically precisely instantly
stand standing sit sound sounds seem seems seemed feel feels felt mean means meant wonder wondering wish try trying tried
help helping keep kept stay stop start started begin continue carry handle deal work working worked happen happened happening
push pushed move moved put putting call allow allowed afford manage managed expect expected worry care matter matters remember
forget forgot miss missed notice noticed confirm confirmed figure figured sort sorted come comes coming came far left remaining
thing things stuff idea question questions problem problems issue issues reason reasons time times moment minute hour side part
kind type way end sense job situation picture overview snapshot rundown lowdown update updates
everyone everybody anybody somebody nobody whoever whichever whatever someone
sirf bas upar neeche niche kitaab kitab chadh naam bacha bachi bache lagta lagti lag kuchh
jaldi accha acha matlab waise sahi galat pura poora kaam log logo logon wapas dubara phirse ekdum
tum tu aap ho hoon hu mai hum du doon dun karu karun karoon bilkul pakka sach jaldi nikalo nikal nikaal dekh dekho dekhna samjhao samjha chahta chahti sakte sakta sakti hoga hogi honge hota hoti
jaayega jayega batana dikhana dikhado batado bhejdo bhejna lagao hatao rakho chodo chhodo mujhe humein hume humko tumhara aapka aapke
weekend weekday couple dozen handful business scary risky dangerous worrying alarming abnormal notable giant jumbo whale whales juicy fat
wait hold hang silly sized size sizes tally wise odd even funny crazy insane wild random sudden suspicious
biggish smallish fishy dodgy shady crisp brief detailed summary short long curious concerned unclear clarity worth worse better
mins secs hrs zara jara zra thoda thodi dena dene deni lena lene leni stuck atka atke atki phansa phasa fasa fansa riding paisa paise paisay pesa rupaye rupaya rupay
`.split(/\s+/).filter(Boolean));

/**
 * The shape of an everyday English word the list above does not hold ("interesting", "remaining",
 * "immediately"): abstract nouns, adjectives and adverbs by their endings, six letters or more.
 * Names rarely end so; one that does is still a name when the user marks it (a capital, "'s", "ka")
 * or puts it after a preposition ("balance for kipling").
 */
const EVERYDAY_SHAPE = /^(?=\p{L}{6,}$)\p{L}+(?:ness|ments?|tions?|sions?|able|ible|ful|less|ous|ings?|ally|ely|ically|wise)$/u;

/**
 * Words of the world outside the book ("who won the world cup in 2011", "will it rain"): never a
 * player's name, and a question about them with nothing of the book named is small talk.
 */
export const WORLD: ReadonlySet<string> = new Set(`
world cup trophy tournament league championship championships olympics ipl f1 formula election elections weather rain forecast
news headlines president minister pm movie movies film song songs stock stocks sensex nifty bitcoin crypto joke jokes
`.split(/\s+/).filter(Boolean));

/** A row count said in words ("the ten busiest markets", "top five"); "one" is no ranking. */
const COUNT_WORDS = Object.fromEntries(Object.entries(numberWords(false)).filter(([, n]) => n >= 2));
const COUNT_WORD = `(?:${Object.keys(COUNT_WORDS).join('|')})`;
const ANY_COUNT_WORDS: Readonly<Record<string, number>> = Object.fromEntries(Object.entries(numberWords(true)).filter(([w, n]) => n >= 2 && /^[a-z]+$/.test(w)));
const HINDI_COUNT_WORD = `(?:${Object.keys(ANY_COUNT_WORDS).join('|')})`;

/** Sports the exchange lists: a sport named is a match of it ("the tennis"), never a player's name. */
/**
 * Teams as the trade writes them, full or short: two side by side are a match ("IND AUS", "pak sl",
 * "mi csk"). Only pairs count, so "sa" or "mi" alone stays Hindi or Marathi; which match it is, or
 * that there is none, the book decides.
 */
const TEAM_NAMES: ReadonlySet<string> = new Set(`
india ind aus australia pak pakistan sl srilanka eng england nz kiwis sa rsa proteas wi windies bang bangladesh afg afghanistan
ire ireland zim zimbabwe ned netherlands sco scotland nep nepal uae oman usa
mi csk rcb kkr srh dc pbks kxip rr lsg gt mumbai chennai kolkata bangalore bengaluru hyderabad rajasthan punjab lucknow
arsenal chelsea barca barcelona madrid liverpool spurs
`.split(/\s+/).filter(Boolean).concat(['sri lanka', 'new zealand', 'south africa', 'west indies', 'real madrid', 'man city', 'man utd']));

/**
 * "karanka take", "nehaki bets": a name typed onto Hindi's "of". Only a word no dictionary has,
 * whose stem is a name's length; a name that ends so ("radhika") keeps its start, which the
 * name search matches as a prefix.
 */
function unglue(folded: string): string {
  return folded.replace(/\b(\p{L}{4,})(ka|ki|ke|ko)\b(?!\s+(?:ka|ki|ke|ko|ne|se|pe|nu|da|di|de)\b)/gu, (word, stem: string, of: string) =>
    (PLAIN_WORDS.has(word) || LEXICON.has(word) || SLANG[word] !== undefined || EVERYDAY.has(word) || STOPWORDS.has(word) || PLAIN_WORDS.has(stem) || LEXICON.has(stem) || /(?:ka|ki|ke|ko)$/.test(stem) ? word : `${stem} ${of}`));
}

/** Whether words are two teams and nothing else: "madrid barca", "new zealand india". */
function isTeamPair(text: string): boolean {
  const words = text.split(' ');
  let units = 0;
  for (let i = 0; i < words.length; units++) {
    if (i + 1 < words.length && TEAM_NAMES.has(`${words[i]} ${words[i + 1]}`)) i += 2;
    else if (TEAM_NAMES.has(words[i]!)) i += 1;
    else return false;
  }
  return units === 2;
}

/** Words of money stuck or riding. */
const STUCK = /\b(?:stuck|atka|atke|atki|phansa|phase|phasa|fasa|fasaa|fansa|riding)\b/;

export const SPORTS: ReadonlySet<string> = new Set(['cricket', 'tennis', 'football', 'soccer']);

/**
 * Words the planner reads that belong to no one tool (fixtures, markets, the assistant's own); each
 * tool's planning adds its own vocabulary (src/main/tools). None of them is ever part of a name.
 */
export const LEXICON: ReadonlySet<string> = new Set(`
market markets matches fixtures events games fixture match game event
vs v versus against
matchodds overunder goals runs total odds
capabilities help
yesterday
`.split(/\s+/).filter(Boolean));

export const PRONOUNS = new Set(['him', 'his', 'her', 'hers', 'he', 'she', 'them', 'their', 'they', 'uska', 'uske', 'uski', 'usko', 'iska', 'iske', 'iski', 'isko', 'unka', 'unke', 'unki', 'unko', 'usne', 'isne', 'unhone', 'inhone', 'usey', 'isey']);
const DEMONSTRATIVE_PLAYER = /\b(?:this|that|the|same)\s+(?:player|guy|person|client|punter|account|agent|one)\b/;
const DEMONSTRATIVE_FIXTURE = /\b(?:this|that|the\s+same|same|us|uss|usi|wo|woh|is|iss|isi|ye|yeh)\s+(?:match|fixture|game|event)\b/;

export interface Token {
  word: string;
  index: number;
}

export interface Reading {
  /** The message folded: lower case, accents off, synonyms canonical, punctuation spaced. */
  folded: string;
  /** Read only: a reading is kept and handed to every later read of the same text. */
  words: ReadonlySet<string>;
  tokens: Token[];
  range: FoundRange | null;
  /** Amounts that are not part of a date, a count ("top 5") or a duration ("last 7 days"). */
  amounts: FoundAmount[];
  /** "top 5", "last 10 bets": a requested row count. */
  count: number | null;
  /** Fixture named by its teams ("India vs Australia", "MI v CSK", "the India match"). */
  fixture: string | null;
  /** A market named in the text ("match odds", "over/under 2.5 goals"). */
  market: string | null;
  /** Runs of words the planner does not know, in order: names. */
  names: Array<{ text: string; before: string | null }>;
  pronounPlayer: boolean;
  pronounFixture: boolean;
}

const CONTRACTED: Readonly<Record<string, string>> = { d: 'would', ll: 'will', m: 'am', ve: 'have', re: 'are' };

/** Lower case without accents; apostrophes and possessive 's dropped ("Sam O'Brien's" → "sam obrien"). */
export function fold(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[’`]/g, "'")
    // "I'd like", "we'll", "don't": a contraction is two words, not one word that could be a name ("id").
    .replace(/\b(i|you|we|they|he|she|it|that|there|who|what)'(d|ll|m|ve|re)\b/g, (_m, who: string, tail: string) => `${who} ${CONTRACTED[tail]}`)
    .replace(/\b(\p{L}+)n't\b/gu, (_m, verb: string) => `${verb === 'ca' ? 'can' : verb === 'wo' ? 'will' : verb} not`)
    .replace(/'s\b/g, '')
    .replace(/'/g, '');
}

/** `known`: the words that are never names (the planner passes LEXICON and every intent's vocabulary). */
/** Words of dates, so "octobr" and "yestarday" are read as dates. */
const DATE_WORDS = ['january', 'february', 'march', 'april', 'june', 'july', 'august', 'september', 'october', 'november', 'december',
  'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday', 'yesterday', 'today', 'week', 'weeks', 'month', 'months', 'fortnight'];

const DO_VERB_TAIL: ReadonlySet<string> = new Set(['dena', 'dene', 'deni', 'lena', 'lene', 'leni']);

/**
 * Slang to its domain word, and a misspelt domain word ("comission", "exposre", "setlement") to
 * the word, when exactly one known word is that close. Words typed with a capital are left alone:
 * they are names.
 */
function correctWords(folded: string, original: string, known: ReadonlySet<string>): string {
  const capitalised = new Set((original.match(/\p{Lu}[\p{L}'’]*/gu) ?? []).map(fold));
  // A short word that something belongs to ("karn ka limit", "ravi's bets") is likely a name, and
  // a short name is as near to some grammar or domain word ("kaun", "earn") as to its own
  // spelling: it is corrected only when letters were dropped from the word ("limt ka matlab").
  const owners = new Set([...folded.matchAll(/(\p{L}{4,5})(?:\s+(?:ka|ke|ki|ko|ne|se|pe|wala|wale|wali)\b|'s\b)/gu)].map((m) => m[1]!));
  const ownedAnyLength = new Set([...folded.matchAll(/(\p{L}+)(?:\s+(?:ka|ke|ki|ko|ne|se|pe|nu|na|ni|no|wala|wale|wali)\b|'s\b)/gu)].map((m) => m[1]!));
  const { targets, memo } = correctionsFor(known);
  return folded.replace(/\p{L}+/gu, (word, at: number) => {
    // "kar dena chahiye" (should do it): "dena" after "kar" is the verb's, not money given or owed.
    if (DO_VERB_TAIL.has(word) && /\bkar\s+$/.test(folded.slice(0, at))) return word;
    const slang = SLANG[word];
    if (slang) return slang;
    // "fullyy", "mostt", "abhii", "takee": a last letter held down is the word without it.
    const held = /(\p{L})\1$/u.test(word) ? word.slice(0, -1) : null;
    if (held && !isPlainOrKnown(word, known) && isPlainOrKnown(held, known)) return SLANG[held] ?? held;
    // "openbets", "thismnth", "pnltoday": two words of the desk typed as one.
    const apart = capitalised.has(word) ? null : runTogether(word, known);
    if (apart) return apart;
    // A word of the dictionary is that word, not a slip of a domain word ("boss" is no "loss").
    if (word.length < 4 || known.has(word) || STOPWORDS.has(word) || EVERYDAY.has(word) || PRONOUNS.has(word) || AMOUNT_WORDS.has(word) || PLAIN_WORDS.has(word) || capitalised.has(word)) return word;
    let corrected = memo.get(word);
    if (corrected === undefined) {
      corrected = correctWord(word, targets);
      if (memo.size < 10_000) memo.set(word, corrected);
    }
    if (owners.has(word) && !(corrected.length > word.length && within(word, corrected))) return word;
    // "could you posibly show…", "plese": a common word slipped, unless something belongs to it ("sumit's").
    if (corrected === word && !ownedAnyLength.has(word)) return COMMON_WORD_SLIPS.get(word) ?? word;
    // A short word one letter off a grammar word ("karn" and "kaun") is as likely a name spelt short:
    // it is that word only when letters were dropped from it ("krna" is karna) or swapped ("kitan").
    if (word.length <= 5 && corrected !== word && (isGrammarWord(corrected) || REGIONAL_WORDS.has(corrected)) && !within(word, corrected)
      && [...word].sort().join('') !== [...corrected].sort().join('')) return word;
    return corrected;
  });
}

/** Words a run-together pair may be made of besides the desk's own: periods and their pointers. */
const RUN_TOGETHER_PARTS: ReadonlySet<string> = new Set(['this', 'last', 'next', 'my', 'all', 'top', 'week', 'month', 'today', 'yesterday', 'day', 'days', 'total', 'aaj', 'kal']);
const runTogetherPart = (part: string, known: ReadonlySet<string>): string | null => {
  const word = SLANG[part] ?? part;
  return known.has(word) || RUN_TOGETHER_PARTS.has(word) ? word : null;
};
/**
 * A word that is no word but two of the desk's words run together ("openbets" is "open bets"):
 * only words of the desk and periods count as halves, never plain words, so a name ("farhan",
 * "far" and "han") is never cut in two.
 */
function runTogether(word: string, known: ReadonlySet<string>): string | null {
  if (word.length < 6 || isPlainOrKnown(word, known)) return null;
  for (let at = 3; at <= word.length - 3; at++) {
    const head = runTogetherPart(word.slice(0, at), known);
    const tail = head && runTogetherPart(word.slice(at), known);
    if (head && tail) return `${head} ${tail}`;
  }
  return null;
}

const isPlainOrKnown = (word: string, known: ReadonlySet<string>) => known.has(word) || STOPWORDS.has(word) || EVERYDAY.has(word) || PRONOUNS.has(word) || PLAIN_WORDS.has(word) || SLANG[word] !== undefined;

/**
 * The words a typo may be corrected to, per set of known words, and the corrections made so far:
 * a correction is a pure function of the word and the set, so it is worked out once.
 */
const CORRECTIONS = new WeakMap<ReadonlySet<string>, { targets: readonly string[]; memo: Map<string, string> }>();
function correctionsFor(known: ReadonlySet<string>): { targets: readonly string[]; memo: Map<string, string> } {
  let entry = CORRECTIONS.get(known);
  if (!entry) {
    // Short date words are left out: "marc" or "juli" is more likely a name than a month.
    const targets = [...[...known].filter((w) => w.length >= 4), ...DATE_WORDS.filter((w) => w.length >= 6)].filter((w) => /^\p{L}+$/u.test(w));
    entry = { targets, memo: new Map() };
    CORRECTIONS.set(known, entry);
  }
  return entry;
}

/** One lower-case word the planner does not know: the word it is a slip of, or itself. */
function correctWord(word: string, targets: readonly string[]): string {
  // A grammar word with two letters swapped ("dose", "thsi") is that word: a swap is the commonest
  // slip, and one that happens to spell a name is rare. Any other distance to a grammar word is a name.
  const swapped = SWAP_TARGETS.get(swapKey(word));
  if (swapped) {
    const grammar = swapped.find((t) => isTypoOf(word, t));
    if (grammar) return grammar;
  }
  // The closest known word; of equally close ones, one the typed letters are all in (a letter
  // dropped: "limt" is limit, not lift), then the shortest ("commission", not "commissions").
  const near = targets.filter((t) => isTypoOf(word, t) || isLongTypoOf(word, t))
    .sort((a, b) => distance(word, a) - distance(word, b) || Number(!within(word, a)) - Number(!within(word, b)) || a.length - b.length);
  if (near[0]) return near[0];
  // Typed without its vowels ("cmsn", "stlmnt", "hstry"): the one known word with those consonants.
  const bare = consonantsOf(word);
  if (bare !== null) {
    const bySkeleton = targets.filter((t) => t.length >= 4 && skeletonOf(t) === bare);
    if (bySkeleton.length === 1) return bySkeleton[0]!;
  }
  // Spelt as said ("commishun", "settelmint"): the written ending, if that makes a known word.
  const spelt = word.replace(/sh[ua]n$/, 'ssion').replace(/mint$/, 'ment');
  if (spelt !== word) {
    const said = targets.find((t) => t === spelt || isTypoOf(spelt, t));
    if (said) return said;
  }
  // Else a long everyday or grammar word with one slip ("overal", "seperately") is that word, not a name.
  return word.length >= 6 ? LONG_PLAIN_WORDS.find((t) => Math.abs(t.length - word.length) <= 1 && distance(word, t) === 1) ?? word : word;
}

/** A word's first letter and its other consonants, doubled letters once: "settlement" → "stlmnt". */
const skeletonOf = (word: string) => (word[0]! + word.slice(1).replace(/[aeiou]/g, '')).replace(/(.)\1+/g, '$1');
/** The skeleton of a word typed without vowels (a vowel may open it: "expsr"), or null for one that has them. */
const consonantsOf = (word: string) => (word.length >= 4 && !/[aeiou]/.test(word.slice(1)) ? skeletonOf(word) : null);

/**
 * A long misspelt word ("ballence", eight letters) may be two edits from a shorter domain word
 * ("balance", seven): the typed length decides how many slips are forgiven, as in the classifier.
 * Only for domain words of six letters or more, where two edits still leave most of the word.
 */
function isLongTypoOf(word: string, target: string): boolean {
  if (word.length < 8 || target.length < 6 || Math.abs(word.length - target.length) > 2) return false;
  const d = distance(word, target);
  // Two letters swapped and one more slip ("comisison"): the swap counts as one, as typists make it.
  return d <= 2 || (d === 3 && adjacentSwaps(word).some((w) => distance(w, target) <= 1));
}

function adjacentSwaps(word: string): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < word.length; i++) if (word[i] !== word[i + 1]) out.push(word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2));
  return out;
}

/** Whether `typed` is `word` with letters left out: every typed letter in order. */
function within(typed: string, word: string): boolean {
  let at = 0;
  for (const c of word) if (c === typed[at]) at++;
  return at === typed.length;
}

/** Grammar and everyday words of six letters or more: one slip away from one, a word is that word. */
const LONG_PLAIN_WORDS: readonly string[] = [...new Set([...STOPWORDS, ...EVERYDAY])].filter((w) => w.length >= 6 && /^\p{L}+$/u.test(w));

/** Letters sorted: two words with the same key may be one swap apart. */
const swapKey = (word: string) => [...word].sort().join('');
const SWAP_TARGETS: ReadonlyMap<string, readonly string[]> = (() => {
  const byKey = new Map<string, string[]>();
  for (const w of STOPWORDS) {
    if (w.length < 4 || !/^\p{L}+$/u.test(w)) continue;
    byKey.set(swapKey(w), [...(byKey.get(swapKey(w)) ?? []), w]);
  }
  return byKey;
})();

/**
 * A period said bare, the ledger's way ("pl wk", "comm month", "p&l mtd"), is the current one:
 * "this week", "this month". Only a "week" or "month" with nothing before it that makes it another
 * one (last, next, per, a count…).
 */
function withBarePeriods(text: string): string {
  return text
    .replace(/\b(?:wtd|week\s+to\s+date)\b/g, 'this week').replace(/\b(?:mtd|month\s+to\s+date)\b/g, 'this month')
    .replace(/(?<!\b(?:this|last|next|previous|prev|past|per|every|a|an|the|one|of|each|which|what|that|same|any|whole|full|entire|whose|pichle|pichhle|pichla|is|iss|agle|us|har|\d+)\s+)\b(week|month)\b(?!\s*(?:ly|s|ago|before|back|se|tak|of|end|ends|start|starts)\b)/g, 'this $1');
}

/**
 * Punjabi words that are also Hindi words, read as Punjabi only where Hindi could not have them:
 * "sneha di cmsn" (of), not "kar di" (did); "is hafte de stlmnt" (of), not "bata de" (give);
 * "anita te sneha" (and) and "india te 10k lay" (on); "pnl ki rahi" (what); "hun tak" (now).
 */
/** A number word of an amount ("dedh", "paanch", "lakh"): "lagai de dedh lakh" gives, it owns nothing. */
const AMOUNT_WORD = `(?:${[...AMOUNT_WORDS].filter((w) => /^\p{L}{2,}$/u.test(w)).join('|')})`;
const VERB_BEFORE_GIVE = String.raw`(?:kar|kr|de|bata|dikha|bhej|laga|lagai|khai|daal|dal|hata|rakh|chhod|chod|bana|nikal|likh|sun|samjha|set|settle|clear|mute|band|chalu|badha|ghata|khol|le|la|dila|jama|kat|mita)`;
/** Words only Punjabi has: a message with none of them keeps its Hindi "te", "hun", "ton", "je". */
const PUNJABI = /\b(?:da|dasso|daso|dass|kinna|kinni|kinne|kinniyan|ch|vich|vi|ohnu|onu|ohda|ohdi|ohde|ehda|ehdi|ehde|ehnu|deyo|deo|deyie|hoya|hoyi|hunda|hundi|sakda|kehda|kehdi|kehde|vaddi|vadda|uchi|laggi|laggiyan|thalle|mainu|naal|kol|ton|paaji|paji|tussi|jitt|chahida|reha|kitta|ditta|aj|ajj|hovega|paina|je)\b|^\s*hun\s*\?*\s*$/;
/** Read wherever they stand: Hindi has these words only before a verb ("kar di", "bata de", "de do") or a number. */
const PUNJABI_ANYWHERE: Array<[RegExp, string]> = [
  [new RegExp(String.raw`(?<!\b${VERB_BEFORE_GIVE}\s)\bdi\b(?=\s+(?!(?:hai|hain|h|he|thi|tha|kya|na|hogi|ho|ki|do)\b)(?![\d]|${AMOUNT_WORD}\b)\p{L})`, 'gu'), 'ki'],
  [new RegExp(String.raw`(?<!\b${VERB_BEFORE_GIVE}\s)\bde\b(?!\s+(?:do|diya|diye|dena|di|de|dijiye|dete|deta|doge|dega|dunga|na|dein)\b)(?!\s+(?:\d|${AMOUNT_WORD}\b))(?=\s+\p{L})`, 'gu'), 'ke'],
  [/\bki\b(?=\s+(?:rahi|raha|rahe|hoga|hota|hoti|hote|hua|hui|haal|farak|farq|fark|cheez|matlab|ki\s+kar|kya\s+kar|kar\s+sakta|kar\s+sakte)\b)/g, 'kya'],
  [/\baa\b(?=\s*(?:[?.!]+\s*)?$|\s+(?:samjha|samjhao|batao)\b)/g, 'hai'],
  // Hindi's "dao" is a bet ("kitne dao lage"); Bengali's, closing the message ("pnl ta dao", "kore dao"), is "give".
  [/\bdao\b(?=\s*[.!?]*$)/g, 'do'],
  [/\bdao\b/g, 'bets'],
];
/** "ee vaaram", "ya aathvadyat", "ha mahina", "intha maasam": this week or month, in the south and in Marathi. */
const THIS_PERIOD: Array<[RegExp, string]> = [
  [/\b(?:ee|ei|intha|indha|inda|ya|hya|ha|hi)\s+(?=(?:week|month|roju|din)\b)/g, 'this '],
  [/\b(?:ee|ya|hya|ha|hi)\s+(?=(?:mahina|mahine|hafta|hafte)\b)/g, 'is '],
  // "mahine ke top 3 market", "hafte ka sabse chalta market": the period said bare, first, is the current one.
  [/^\s*(?=(?:mahine|mahina|hafte|hafta)\s+(?:ka|ke|ki|me|mein|bhar)\b)/g, 'is '],
];
/** "te 50k kar" (Marathi: make that 50k): the thing just read, pointed at. */
const THAT_AMOUNT: [RegExp, string] = [new RegExp(String.raw`^\s*(?:te|ti|tyala|tila)\s+(?=-?\s*\d|minus\b|${AMOUNT_WORD}\b)`), 'isko ']
/** "1 November te 10 November": Marathi's "te" between two dates is "to". */
const DATE_TO: [RegExp, string] = [/(?<=\d(?:st|nd|rd|th)?(?:\s+\p{L}+)?)\s+te\s+(?=\d)/gu, ' to '];
/** Read as Punjabi only in a message that is Punjabi by its other words. */
const PUNJABI_IN_CONTEXT: Array<[RegExp, string]> = [
  [/\bte\b(?=\s*(?:[?.!]*\s*$|\d|(?:\p{L}+\s+)?(?:lay|back|lagao|laga|khai|khaa)\b))/gu, 'pe'],
  [/\bte\b/g, 'aur'],
  [/^\s*ki\b|(?<=\b(?:tu|tusi|aap|matlab)\s)ki\b/g, 'kya'],
  [/^\s*hun\b|\bhun(?=\s+(?:tak|kitna|kitni|kitne|ki|kya)\b)|\bhun\s*(?=\?)/g, 'ab'],
  [/(?<=\p{L}\s)ton\b(?!\s+of\b)/gu, 'se'],
  [/^\s*je\b/g, 'agar'],
  [/\b(agar\b.*?)\bta\b/g, '$1 to'],
];

/** Postpositions of the languages agents mix in, said right after a team: "IND v AUS var", "MI vs CSK la". */
const TEAM_PARTICLES: ReadonlySet<string> = new Set(['la', 'lo', 'le', 'ku', 'oda', 'var', 'madhe', 'madhye', 'mein', 'me', 'pe', 'par', 'ch', 'ma', 'ke', 'ka', 'ki', 'che', 'cha', 'chi', 'nu', 'ni', 'no', 'na', 'da', 'di', 'de', 'unna', 'ulla', 'te', 'e', 'er']);

/**
 * The message read: its folded words, dates, amounts, count, fixture, market and the runs of
 * words that are names. A plan reads the same text several times (the whole message, each
 * clause, the clauses again after a split, the earlier turn's message), and a reading depends on
 * nothing but its arguments, so the latest readings are kept: about a quarter of a plan's reads
 * were repeats (`bench/assistant.ts`). What is kept is frozen, so no caller can change what
 * another is handed.
 */
export function read(typed: string, today: IsoDate, known: ReadonlySet<string> = LEXICON): Reading {
  let kept = READINGS.get(known);
  if (!kept) READINGS.set(known, kept = new Map());
  const key = `${today}\u0000${typed}`;
  const hit = kept.get(key);
  if (hit) {
    // Most recently used last: the oldest is the first to go.
    kept.delete(key);
    kept.set(key, hit);
    return hit;
  }
  const reading = deepFreeze(readAfresh(typed, today, known));
  kept.set(key, reading);
  if (kept.size > READINGS_KEPT) kept.delete(kept.keys().next().value!);
  return reading;
}

/** Readings kept per vocabulary (`known`), most recently used last. */
const READINGS = new WeakMap<ReadonlySet<string>, Map<string, Reading>>();
const READINGS_KEPT = 64;

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    // A Set cannot be frozen in place; `Reading.words` is typed read only instead.
    if (!(value instanceof Set)) for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

function readAfresh(typed: string, today: IsoDate, known: ReadonlySet<string>): Reading {
  // Capitals spelt out one by one, as speech-to-text writes them ("M I versus C S K"): one word.
  const text = typed.replace(/\b[A-Z](?:\s+[A-Z]\b)+/g, (letters) => letters.replace(/\s+/g, ''));
  // A word typed twice in a row ("karan karan bal bal") is said once. "15 nov tk" is Hindi's "till", not take.
  // "karn malhotra ka tak kitna h": "tak" owned by someone is their take ("kal tak" stays till).
  let corrected = correctWords(unglue(fold(text)).replace(/(?<=\d(?:\s*\p{L}{3,9})?\s*)\btk\b/gu, 'tak').replace(/\b(ka|ki|ke)\s+tak\b(?!\s+(?:ka|ki|ke)\b)/g, '$1 take'), text, known).replace(/\b(\p{L}{2,})(?:\s+\1\b)+/gu, '$1')
    // Gujarati "1 thi 15 sudhi", "somvar thi aaj sudhi": "thi" opens a range ("from"), Hindi "se".
    .replace(/\bthi\b(?=.*\btak\b)/g, 'se');
  const punjabi = PUNJABI.test(fold(text));
  for (const [pattern, word] of [...THIS_PERIOD, DATE_TO, ...PUNJABI_ANYWHERE, ...(punjabi ? PUNJABI_IN_CONTEXT : [THAT_AMOUNT])]) corrected = corrected.replace(pattern, word);
  let folded = foldSynonyms(` ${corrected} `);
  const range = findDateRange(corrected, today) ?? findDateRange(withBarePeriods(corrected), today);
  // After "top", "pehle", Hindi counts are counts too ("top das", "pehle paanch bets"); elsewhere
  // only words that are nothing else ("ravi das bets" is Ravi Das's).
  const countMatch = new RegExp(String.raw`\b(?:top|pehle|pahle)\s+(${HINDI_COUNT_WORD})\b(?!\s*(?:days?|weeks?|months?|din|hafte|mahine))`).exec(folded)
    ?? new RegExp(String.raw`\b(?:top|first|last|latest|biggest|largest|best|worst|recent)\s+(\d{1,3}|${COUNT_WORD})\b(?!\s*(?:days?|weeks?|months?|din|dino|dinon|divas|hafte|hafton|mahine|mahino)\b)`).exec(folded)
    ?? new RegExp(String.raw`\b(\d{1,3}|${COUNT_WORD})\s+(?:(?:most\s+)?(?:recent|latest|busiest|biggest|largest|top|best|worst)\s+)?(?:(?:open|settled|unsettled|void|voided|pending|won|lost|winning|losing)\s+)?(?:markets?|matches|fixtures|games|events|bets|settlements|payments|players)\b`).exec(folded)
    // "sabse badi stake wali 5": Hindi names the count after what is ranked.
    ?? new RegExp(String.raw`\b(?:biggest|highest|smallest|sabse\s+\S+)\s+(?:\S+\s+)?(?:wali|wale|vali|vale)\s+(\d{1,3})\s*(?:dikhao|dikha|batao|bata|do|de|bas|only|pls|please)?\s*$`).exec(folded);
  // "aaj ka sabse bada bet konsa hai", "what was the biggest bet today": one bet, the first of the ranking.
  const single = countMatch ? null : /\b(?:sabse\s+(?:bada|badi|bade|uncha|unchi|zyada)|(?:the\s+)?(?:single\s+)?(?:biggest|largest|highest|heaviest))\s+(?:single\s+)?(?:bet|stake|daav|sauda)\b(?!\s+(?:bets|wale|wali|wala|se|ke|ki))/.exec(folded);
  const count = countMatch ? COUNT_WORDS[countMatch[1]!] ?? ANY_COUNT_WORDS[countMatch[1]!] ?? Number(countMatch[1]) : single ? 1 : null;

  const amounts = findAmounts(text).filter((a) => {
    if (range && overlaps(text.toLowerCase(), range.raw, a)) return false;
    const after = text.slice(a.end).trimStart().toLowerCase();
    if (/^(?:(?:most\s+)?(?:recent|latest|busiest|biggest|largest|top|best|worst)\s+)?(?:days?|weeks?|months?|years?|markets?|bets?|players?|rows?|matches|fixtures|games|events|settlements|payments)\b/.test(after)) return false;
    const before = text.slice(0, a.start).trimEnd().toLowerCase();
    if (/\b(?:top|first|last|latest|biggest|largest|recent)$/.test(before)) return false;
    // An over/under line ("over/under 2.5 goals", "300.5") is a market's name, not money.
    if (/(?:over|under|o\/u|\/|\b(?:total\s+)?(?:runs|goals|points|line))$/.test(before)) return false;
    return true;
  });

  // Dates and amounts are read; blank them so their words are not taken for names.
  let scrubbed = folded;
  if (range) scrubbed = scrubbed.replace(fold(range.raw), ' ');
  // "deepak & irfan" is "deepak and irfan" (a "p & l" was folded to pnl before this).
  scrubbed = scrubbed.replace(/\s[&+]\s/g, ' and ');
  // A comma between words ends a name: "Karan, Neha aur Sneha" is three players, not "karan neha".
  scrubbed = scrubbed.replace(/(?<=\p{L})\s*,\s*(?=\p{L})/gu, ' \u00b6 ');
  // A line break ends a name too: a pasted list ("• Anita\n• Sneha") is one player a line.
  scrubbed = scrubbed.replace(/(?<=\p{L})[^\S\n]*\n+[\s\W]*(?=\p{L})/gu, ' \u00b6 ');
  scrubbed = scrubbed.replace(/[^\p{L}\p{N}\s\u00b6]+/gu, ' ').replace(/\s+/g, ' ');
  const afterComma = new Set<number>();
  const tokens: Token[] = [];
  for (const word of scrubbed.trim().split(' ').filter(Boolean)) {
    if (word === '\u00b6') afterComma.add(tokens.length);
    else tokens.push({ word, index: tokens.length });
  }
  const named = namedDespiteEveryday(text);
  // A word only shaped like an everyday one ("kipling") is still a name right after a preposition: "balance for kipling".
  // "to" before a verb and its object is no cue ("sorry to bother you", "want to collect the dues").
  const cued = new Set([...folded.matchAll(/\b(for|of|with|from|by|to|about|on)\s+(\p{L}+)(?:\s+(\p{L}+))?/gu)]
    .filter((m) => !(m[1] === 'to' && m[3] !== undefined && OBJECT_AFTER_VERB.has(m[3]) && PLAIN_WORDS.has(m[2]!)))
    .map((m) => m[2]!));
  const isKnownTeamWord = (w: string) => known.has(w) || TEAM_PARTICLES.has(w) || ((EVERYDAY.has(w) || WORLD.has(w) || (EVERYDAY_SHAPE.test(w) && !cued.has(w))) && !named.has(w)) || STOPWORDS.has(w) || PRONOUNS.has(w) || AMOUNT_WORDS.has(w) || /^\d/.test(w) || w.length === 1 && w !== 'v'
    || /^(?:jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec|january|february|march|april|june|july|august|september|october|november|december|monday|tuesday|wednesday|thursday|friday|saturday|sunday|lakh|lakhs|lac|crore|crores|cr|k|m|mn|million|billion|bn|trillion|tn|thousand|st|nd|rd|th)$/.test(w);
  // A plain word (plain-words.ts) is a name only when marked as one; the sides of "A vs B" and the
  // words before "match" are teams, read without it ("arsenal vs chelsea").
  const isKnown = (w: string) => isKnownTeamWord(w) || (PLAIN_WORDS.has(w) && !named.has(w) && !cued.has(w) && !SPORTS.has(w));

  const used = new Set<number>();
  let fixture: string | null = null;
  // "A vs B": the unknown words touching the joiner on each side are the teams.
  const joiner = tokens.findIndex((t) => ['vs', 'v', 'versus', 'against'].includes(t.word));
  if (joiner > 0 && joiner < tokens.length - 1) {
    const left: Token[] = [];
    // A comma ends a side: "lay 5k on Alcaraz, Djokovic v Alcaraz" is Djokovic v Alcaraz.
    for (let i = joiner - 1; i >= 0 && !isKnownTeamWord(tokens[i]!.word); i--) {
      left.unshift(tokens[i]!);
      if (afterComma.has(i)) break;
    }
    const right: Token[] = [];
    for (let i = joiner + 1; i < tokens.length && !isKnownTeamWord(tokens[i]!.word) && !(i > joiner + 1 && afterComma.has(i)); i++) right.push(tokens[i]!);
    if (left.length > 0 && right.length > 0) {
      fixture = `${left.map((t) => t.word).join(' ')} vs ${right.map((t) => t.word).join(' ')}`;
      for (const t of [...left, tokens[joiner]!, ...right]) used.add(t.index);
    }
  }
  // "the India match", "India game": unknown words right before match/game/fixture.
  if (!fixture) {
    const noun = tokens.findIndex((t) => ['match', 'game', 'fixture', 'matches', 'games'].includes(t.word));
    if (noun > 0) {
      const team: Token[] = [];
      // "kiwis wale match", "india ka match": Hindi's "of" stands between the team and the match.
      const start = noun - 1 - (noun >= 2 && /^(?:wale|wala|wali|vale|vala|ka|ke|ki|da|di|de|cha|chi|che|nu|no|ni)$/.test(tokens[noun - 1]!.word) ? 1 : 0);
      for (let i = start; i >= 0 && !isKnownTeamWord(tokens[i]!.word); i--) {
        team.unshift(tokens[i]!);
        if (afterComma.has(i)) break;
      }
      if (team.length > 0) {
        fixture = team.map((t) => t.word).join(' ');
        for (const t of team) used.add(t.index);
      }
    }
  }

  // "IND AUS pe kitna phasa hai", "pak sl": two teams side by side, as the trade writes a match.
  if (!fixture) {
    const unit = (i: number): number => (i + 1 < tokens.length && TEAM_NAMES.has(`${tokens[i]!.word} ${tokens[i + 1]!.word}`) ? 2 : TEAM_NAMES.has(tokens[i]?.word ?? '') ? 1 : 0);
    for (let i = 0; i < tokens.length && !fixture; i++) {
      const first = used.has(i) ? 0 : unit(i);
      // "lay 10k india, ind aus": a comma between them ends the pair.
      const second = first > 0 && !used.has(i + first) && !afterComma.has(i + first) ? unit(i + first) : 0;
      if (first === 0 || second === 0) continue;
      const side = (at: number, n: number) => tokens.slice(at, at + n).map((t) => t.word).join(' ');
      fixture = `${side(i, first)} vs ${side(i + first, second)}`;
      for (let k = i; k < i + first + second; k++) used.add(k);
    }
  }
  // Money stuck on a match is riding on it: the exposure, not money owed ("ind aus pe kitna phasa hai").
  if (fixture && STUCK.test(corrected)) {
    folded = folded.replace(/\boutstanding\b/g, 'exposure');
    for (const t of tokens) if (t.word === 'outstanding') t.word = 'exposure';
  }

  const marketMatch = /\b(matchodds|overunder\s*[\d.]*\s*(?:goals|runs)?|over\s+[\d.]+\s+goals|under\s+[\d.]+\s+goals|total\s+runs(?:\s+overunder)?(?:\s+[\d.]+)?|goals(?=\s+market))\b/.exec(folded);
  const market = marketMatch ? marketMatch[1]!.replace('matchodds', 'match odds').replace('overunder', 'over/under').trim() : null;

  const names: Reading['names'] = [];
  const refused = new Set<number>();
  let run: Token[] = [];
  let lastNameEnd = -1;
  const flush = (next: number) => {
    // "rahul sharman, sharma wala nahi", "Rahul Sharman not the Sharma one": a name turned down
    // tells the one meant apart from it; it names no one to look up.
    const after = tokens.slice(run.at(-1) ? run.at(-1)!.index + 1 : 0, (run.at(-1)?.index ?? 0) + 3).map((t) => t.word);
    const before = tokens.slice(Math.max(0, (run[0]?.index ?? 0) - 2), run[0]?.index ?? 0).map((t) => t.word);
    const turnedDown = /^(?:(?:wala|wali|wale|vala|vali|vale)\s+)?(?:nahi|nahin|nai|nhi)\b/.test(after.join(' '))
      || (/\bnot(?:\s+the)?$/.test(before.join(' ')) && /^(?:one|wala|guy)\b/.test(after.join(' ')));
    if (run.length > 0 && turnedDown && names.length > 0) run = [];
    if (run.length > 0) {
      const prev = tokens[run[0]!.index - 1];
      // "not karan, neha", "Neha not Karan", "anita nahi, lakshmi ka": a name said with "not" is
      // turned down once another is named (a comma ends what "not" applies to).
      // Hindi's "nahi" follows the name it turns down: in "Sneha nahi Neha" it is Sneha's, not Neha's.
      const saidNot = /(?:^|\s)not$/.test(before.join(' ')) || (/(?:^|\s)(?:nahi|nahin)$/.test(before.join(' ')) && lastNameEnd !== run[0]!.index - 2);
      if ((saidNot && !afterComma.has(run[0]!.index)) || turnedDown) refused.add(names.length);
      lastNameEnd = run.at(-1)!.index;
      // "imran vivek dono ki cl": first names listed and then "both", one person a word.
      if (run.length >= 2 && run.length <= 4 && /^(?:dono|donon|dono|both|teeno|teenon|all)$/.test(after[0] ?? '') && !run.some((t) => TEAM_NAMES.has(t.word))) {
        run.forEach((t, i) => names.push({ text: t.word, before: i === 0 ? (afterComma.has(t.index) && prev ? ',' : prev?.word ?? null) : 'and' }));
        run = [];
        return next;
      }
      names.push({ text: run.map((t) => t.word).join(' '), before: afterComma.has(run[0]!.index) && prev ? ',' : prev?.word ?? null });
    }
    run = [];
    return next;
  };
  // A capital letter alone right after a name is its initial ("Rahul V", "Neha G"); a small one is
  // Hinglish shorthand ("karan k bets") or the "v" of a fixture.
  // "I" is the pronoun ("Mr. O'Brien? I believe…"), never an initial.
  const initials = new Set((text.match(/(?<![\p{L}'’])\p{Lu}(?![\p{L}])/gu) ?? []).map((c) => c.toLowerCase()).filter((c) => c !== 'i'));
  // "set Rahul's xyz limit": a possessive closes the name it ends; the words after it are what is
  // the owner's, never more of the name.
  const owners = ownerOccurrences(text);
  const seen = new Map<string, number>();
  for (const t of tokens) {
    if (afterComma.has(t.index)) flush(0);
    if (!used.has(t.index) && run.length > 0 && t.word.length === 1 && initials.has(t.word)) run.push(t);
    else if (used.has(t.index) || isKnown(t.word)) flush(0);
    else run.push(t);
    const nth = seen.get(t.word) ?? 0;
    seen.set(t.word, nth + 1);
    if (run.at(-1) === t && owners.get(t.word)?.has(nth)) flush(0);
  }
  flush(0);
  // "open bets on eng nz and madrid barca": a name made of two teams is a match, cued as one.
  for (const n of names) if (n.before !== 'on' && n.before !== 'in' && isTeamPair(n.text)) n.before = 'on';
  if (refused.size > 0 && refused.size < names.length) {
    for (const at of [...refused].sort((a, b) => b - a)) names.splice(at, 1);
  }

  const words = new Set(tokens.map((t) => t.word));
  return {
    folded: folded.replace(/\s+/g, ' ').trim(),
    words, tokens, range, amounts, count, fixture, market, names,
    pronounPlayer: [...PRONOUNS].some((p) => words.has(p)) || DEMONSTRATIVE_PLAYER.test(folded),
    pronounFixture: DEMONSTRATIVE_FIXTURE.test(folded),
  };
}

/** Which occurrences of each word (folded, counted from 0) the text marks as an owner with "'s": "Rahul's", "O'Brien's". */
function ownerOccurrences(text: string): Map<string, Set<number>> {
  const seen = new Map<string, number>();
  const owners = new Map<string, Set<number>>();
  for (const m of text.matchAll(/\p{L}+(?:['’]\p{L}+)*/gu)) {
    const owned = /['’]s$/i.test(m[0]);
    const word = fold(owned ? m[0].slice(0, -2) : m[0]);
    const nth = seen.get(word) ?? 0;
    seen.set(word, nth + 1);
    if (owned) owners.set(word, (owners.get(word) ?? new Set()).add(nth));
  }
  return owners;
}

/**
 * Everyday words the user marks as a name: typed with a capital inside a sentence ("balance of
 * Major"), a capitalised word before another capitalised one ("Happy Singh ka udhaar"), or any word
 * owned by what follows it ("Major's bets", "major ka udhaar").
 */
/** What follows a verb, never a name: "to bother you", "to see the …". */
const OBJECT_AFTER_VERB: ReadonlySet<string> = new Set(['you', 'u', 'me', 'him', 'her', 'it', 'them', 'us', 'the', 'a', 'an', 'my', 'your', 'this', 'that', 'these', 'those', 'his', 'their', 'our', 'up', 'out', 'in', 'back', 'off', 'all']);

/** "everyone's results", "anybody's bets": the whole book, never a person called Everyone; "bank se", "gpay pe": how money came. */
const EVERYONE: ReadonlySet<string> = new Set(['everyone', 'everybody', 'anyone', 'anybody', 'someone', 'somebody', 'nobody', 'all', 'each', 'every', 'sab', 'sabka', 'sabki', 'sabke',
  'bank', 'gpay', 'upi', 'paytm', 'phonepe', 'neft', 'imps', 'rtgs', 'online', 'cash', 'cheque', 'hawala']);

function namedDespiteEveryday(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.matchAll(/\p{Lu}[\p{L}'’]*/gu)) {
    const before = text.slice(0, m.index).trimEnd();
    const startsSentence = before === '' || /[.!?:]$/.test(before);
    const next = /^\s+(\p{Lu}[\p{L}]*)/u.exec(text.slice(m.index + m[0].length));
    const word = fold(m[0]);
    if (EVERYONE.has(word)) continue;
    // All capitals is how acronyms are typed ("who won the IPL"), not how a name is marked.
    if (m[0].length > 1 && m[0] === m[0].toUpperCase()) continue;
    if (!startsSentence || (next && !EVERYDAY.has(fold(next[1]!)) && !STOPWORDS.has(fold(next[1]!)))) out.add(word);
  }
  // A Hindi or Marathi grammar word before "ka" owns nothing ("lene dene ka hisab").
  for (const m of text.matchAll(/(\p{L}+)(?:['’]s\b|\s+(?:ka|ke|ki|ko|se|ne|pe)\b)/gu)) if (!REGIONAL_WORDS.has(fold(m[1]!)) && !EVERYONE.has(fold(m[1]!))) out.add(fold(m[1]!));
  return out;
}

function overlaps(lower: string, raw: string, amount: FoundAmount): boolean {
  const at = lower.indexOf(raw.toLowerCase());
  return at >= 0 && amount.start < at + raw.length && amount.end > at;
}

export const hasAny = (reading: Reading, ...words: string[]) => words.some((w) => reading.words.has(w));
