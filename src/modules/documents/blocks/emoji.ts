/**
 * GitBook's emoji shortcodes (`:house:`) and their code points as GitBook's `emoji` inline stores
 * them (`1f3e0`; several joined with `-`). A small table of the common ones, not a dependency:
 * a shortcode it does not know stays text, as written. The first name of a code is the one
 * written back.
 */
const SHORTCODES: Readonly<Record<string, string>> = {
  '100': '1f4af',
  grinning: '1f600',
  smile: '1f604',
  smiley: '1f603',
  laughing: '1f606',
  joy: '1f602',
  wink: '1f609',
  blush: '1f60a',
  heart_eyes: '1f60d',
  thinking: '1f914',
  sunglasses: '1f60e',
  cry: '1f622',
  sob: '1f62d',
  scream: '1f631',
  angry: '1f620',
  '+1': '1f44d',
  thumbsup: '1f44d',
  '-1': '1f44e',
  thumbsdown: '1f44e',
  clap: '1f44f',
  wave: '1f44b',
  pray: '1f64f',
  muscle: '1f4aa',
  point_right: '1f449',
  point_left: '1f448',
  ok_hand: '1f44c',
  raised_hands: '1f64c',
  eyes: '1f440',
  heart: '2764',
  star: '2b50',
  star2: '1f31f',
  sparkles: '2728',
  fire: '1f525',
  zap: '26a1',
  boom: '1f4a5',
  tada: '1f389',
  rocket: '1f680',
  house: '1f3e0',
  bulb: '1f4a1',
  warning: '26a0',
  x: '274c',
  white_check_mark: '2705',
  heavy_check_mark: '2714',
  question: '2753',
  exclamation: '2757',
  no_entry: '26d4',
  stop_sign: '1f6d1',
  lock: '1f512',
  unlock: '1f513',
  key: '1f511',
  gear: '2699',
  wrench: '1f527',
  hammer: '1f528',
  hammer_and_wrench: '1f6e0',
  package: '1f4e6',
  memo: '1f4dd',
  pencil2: '270f',
  book: '1f4d6',
  books: '1f4da',
  bookmark: '1f516',
  link: '1f517',
  paperclip: '1f4ce',
  pushpin: '1f4cc',
  calendar: '1f4c5',
  hourglass: '231b',
  bell: '1f514',
  mag: '1f50d',
  chart_with_upwards_trend: '1f4c8',
  bar_chart: '1f4ca',
  computer: '1f4bb',
  keyboard: '2328',
  iphone: '1f4f1',
  email: '1f4e7',
  envelope: '2709',
  inbox_tray: '1f4e5',
  outbox_tray: '1f4e4',
  file_folder: '1f4c1',
  open_file_folder: '1f4c2',
  page_facing_up: '1f4c4',
  clipboard: '1f4cb',
  construction: '1f6a7',
  bug: '1f41b',
  globe_with_meridians: '1f310',
  earth_americas: '1f30e',
  sunny: '2600',
  cloud: '2601',
  rainbow: '1f308',
  snowflake: '2744',
  coffee: '2615',
  pizza: '1f355',
  gift: '1f381',
  trophy: '1f3c6',
  medal: '1f3c5',
  dart: '1f3af',
  art: '1f3a8',
  robot: '1f916',
  brain: '1f9e0',
  money_with_wings: '1f4b8',
  moneybag: '1f4b0',
  dollar: '1f4b5',
  shield: '1f6e1',
  recycle: '267b',
  arrow_right: '27a1',
  arrow_left: '2b05',
  arrow_up: '2b06',
  arrow_down: '2b07',
  information_source: '2139',
  new: '1f195',
  speech_balloon: '1f4ac',
  loudspeaker: '1f4e2',
  mega: '1f4e3',
  handshake: '1f91d',
  seedling: '1f331',
  evergreen_tree: '1f332',
  cat: '1f431',
  dog: '1f436',
  unicorn: '1f984',
  partying_face: '1f973',
  hugs: '1f917',
  rotating_light: '1f6a8',
  triangular_flag_on_post: '1f6a9',
  checkered_flag: '1f3c1',
  crown: '1f451',
  gem: '1f48e',
  magic_wand: '1fa84',
  test_tube: '1f9ea',
  microscope: '1f52c',
  label: '1f3f7',
};

const NAMES = new Map<string, string>();
for (const [name, code] of Object.entries(SHORTCODES)) if (!NAMES.has(code)) NAMES.set(code, name);

/** A shortcode's code, or undefined when the table does not have it. */
export const emojiCode = (name: string): string | undefined =>
  Object.hasOwn(SHORTCODES, name) ? SHORTCODES[name] : undefined;

/** The shortcode written for a code, or undefined. */
export const emojiName = (code: string): string | undefined => NAMES.get(code.toLowerCase());

/** `1f3e0` (or `1f44d-1f3fb`) as its characters; undefined when it is not code points. */
export function emojiChars(code: string): string | undefined {
  if (!/^[0-9a-f]{1,6}(-[0-9a-f]{1,6})*$/i.test(code)) return undefined;
  const points = code.split('-').map((hex) => Number.parseInt(hex, 16));
  if (points.some((p) => p > 0x10ffff || (p >= 0xd800 && p <= 0xdfff))) return undefined;
  return String.fromCodePoint(...points);
}

/** A character sequence as its code (`✨` → `2728`), variation selectors left out. */
export const emojiCodeOf = (chars: string): string =>
  [...chars]
    .filter((c) => c !== '\ufe0f')
    .map((c) => (c.codePointAt(0) ?? 0).toString(16))
    .join('-');
