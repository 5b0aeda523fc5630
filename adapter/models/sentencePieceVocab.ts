import { CHATML_TEMPLATE, type GgufVocab, TokenType } from "./types.js";

/** SentencePiece's visible space: llama.cpp replaces every space with it before tokenizing. */
const SPACE = "\u2581";

/**
 * Words that become whole tokens: the decision prompt's own words first, then common English and the
 * vocabulary of support tickets and incidents, so prompts tokenize to a realistic number of tokens.
 */
const WORDS = `
apply the supplied criterion to evidence choose exactly one listed option respond with only its uppercase
letter no explanation or reasoning options description system user assistant think state question
a an and are as at be been but by can could did do does for from had has have he her his how i if in
into is it its just like may me more most must my new not now of on our out over said she should so some
such than that their them then there these they this those through up us was we were what when where
which while who why will would you your all also any back because before being both each even first
get give go good great here high just know last long made make many much need never next other own part
people place same see seem still take tell time two under use very way well work year after again
against between down during few further once only per since until upon within without about above
across along already always among another around away below beyond case cause change check close come
complete current day days different does done early end enough error event every example fact fail
failed fix following found full group hand help hour hours important include including information
issue issues keep large later least less level line little low main mean might minute minutes month
move name number often open order page point possible problem problems process provide put quickly
ready reason report request required result return right run running service set several show side
small start status step stop sure system team thing think today total true try turn type unable update
used using value want week whether word yes yet account accounts access admin alert alerts api app
application approve approved amount bill billing bug business cancel cancelled card charge charged
client code config connection contract cost critical customer customers data database date delay
delayed delivery deploy deployment disk down email enterprise escalate escalation failure feature fee
file files incident incidents invoice latency legal license login memory message network outage
password payment plan policy premium price priority product production queue refund region release
renewal route routing sales security server servers severity shipment shipping subscription support
technical ticket tickets tier timeout trial upgrade urgent warning high medium low normal none other
category label labels score yes no true false null unknown positive negative neutral please thanks
thank hello hi dear regards sorry cannot can't don't won't isn't it's i'm we're you're i've
world twice again once today yesterday tomorrow morning night since still broken slow fast stuck
missing wrong duplicate double triple charged receive received send sent waiting wait asked ask answer
answered reply replied contact contacted phone call called chat online offline mobile web browser
device devices install installed setup sign signed reset locked blocked denied allowed permission
permissions role roles owner manager engineer engineers developer developers customer's company
office home country city store stores item items box package order orders tracking address street
weekend monday tuesday wednesday thursday friday saturday sunday january february march april june
july august september october november december hour's minutes ago every almost nearly around
spike spikes increase increased decrease decreased drop dropped rate rates percent traffic load cpu
gpu requests responses response errors logs log metric metrics dashboard monitor monitoring page
paged pager on-call oncall rollback rolled restart restarted crash crashed crashes leak cluster node
nodes pod pods container containers instance instances storage backup backups restore restored
`;

/** JSON and prose punctuation pieces (spaces written as spaces; escaped when the vocabulary is built). */
const PUNCTUATION_PIECES = [
  '{"',
  '"}',
  '":',
  '": "',
  '", "',
  '": [',
  '": {',
  '"]',
  '"}]',
  '[{"',
  '"}, {"',
  "}, {",
  '"},',
  '" ',
  ' "',
  ", ",
  ". ",
  ": ",
  "; ",
  "? ",
  "! ",
  "...",
  "--",
  " (",
  ") ",
  "),",
  ").",
  "'s",
  "n't",
  "ing",
  "ed",
  "er",
  "ly",
  "es",
  "s",
  "ion",
  "tion",
  "ment",
  "ness",
];

/** Digits, short numbers and years. */
const NUMBER_PIECES = [
  "00",
  "10",
  "12",
  "15",
  "20",
  "24",
  "30",
  "50",
  "100",
  "200",
  "404",
  "500",
  "503",
  "2024",
  "2025",
  "2026",
];

/**
 * Builds a deterministic SentencePiece-style vocabulary (`tokenizer.ggml.model = llama`) for small
 * generated models.
 *
 * Layout: `<unk>` (0), `<s>` (1), `</s>` (2), the 256 byte tokens `<0x00>`…`<0xFF>` (3–258, type byte),
 * `<|im_start|>` and `<|im_end|>` (control, so `tokenize(text, true)` keeps each one token), then
 * normal pieces: printable ASCII characters, `▁A`…`▁Z`, JSON punctuation such as `{"`, `":▁"`, `",▁"`,
 * and several hundred English words with and without a leading `▁`, lower-case and capitalised.
 * Every multi-character piece has all its prefixes in the vocabulary, so llama.cpp's pair-merging
 * tokenizer always reaches a whole word. Scores fall with position: earlier pieces merge first.
 * `bos` is `<s>`, `eos` is `<|im_end|>` (ChatML turns end there), and `add_bos_token` is false.
 * @example
 * ```ts
 * const vocab = buildSentencePieceVocab();
 * vocab.tokens[1]; // "<s>"
 * ```
 */
export function buildSentencePieceVocab(): GgufVocab {
  const tokens: string[] = [];
  const types: number[] = [];
  const seen = new Set<string>();
  const add = (text: string, type: number): void => {
    if (seen.has(text)) return;
    seen.add(text);
    tokens.push(text);
    types.push(type);
  };

  add("<unk>", TokenType.unknown);
  add("<s>", TokenType.control);
  add("</s>", TokenType.control);
  for (let byte = 0; byte < 256; byte++) {
    add(`<0x${byte.toString(16).toUpperCase().padStart(2, "0")}>`, TokenType.byte);
  }
  add("<|im_start|>", TokenType.control);
  add("<|im_end|>", TokenType.control);
  const firstNormal = tokens.length;

  const addPiece = (piece: string): void => {
    const escaped = piece.replaceAll(" ", SPACE);
    const characters = [...escaped];
    for (let end = 1; end <= characters.length; end++)
      add(characters.slice(0, end).join(""), TokenType.normal);
  };

  addPiece(" ");
  for (let code = 0x21; code <= 0x7e; code++) addPiece(String.fromCharCode(code));
  for (let code = 0x41; code <= 0x5a; code++) addPiece(` ${String.fromCharCode(code)}`);
  for (let code = 0x61; code <= 0x7a; code++) addPiece(` ${String.fromCharCode(code)}`);
  for (let digit = 0; digit <= 9; digit++) addPiece(` ${digit}`);
  for (const piece of PUNCTUATION_PIECES) addPiece(piece);
  for (const piece of NUMBER_PIECES) {
    addPiece(piece);
    addPiece(` ${piece}`);
  }
  for (const word of new Set(WORDS.split(/\s+/).filter((w) => w.length > 0))) {
    const capitalised = word.charAt(0).toUpperCase() + word.slice(1);
    for (const form of [` ${word}`, word, ` ${capitalised}`, capitalised]) addPiece(form);
  }

  const scores = new Float32Array(tokens.length);
  for (let id = firstNormal; id < tokens.length; id++) scores[id] = -(id - firstNormal);

  return {
    model: "llama",
    tokens,
    tokenTypes: Int32Array.from(types),
    scores,
    bosTokenId: 1,
    eosTokenId: tokens.indexOf("<|im_end|>"),
    unknownTokenId: 0,
    addBosToken: false,
    chatTemplate: CHATML_TEMPLATE,
  };
}
