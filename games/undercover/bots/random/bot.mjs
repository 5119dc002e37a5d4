// Random Undercover bot (plain node, no dependencies): says a statement of random everyday words
// that passes the statement check (engine copy: statement-check.mjs), and votes for a uniformly
// random seat among the candidates. Usage: node bot.mjs <port>. Env BOT_SEED makes its choices
// reproducible; without it Math.random is used.
import { BadRequest, portArg, readJson, serve } from './bot-http.mjs';
import { statementFault } from './statement-check.mjs';

const port = portArg();
const NAME = 'random';

// mulberry32: a small seeded PRNG.
function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const seed = Number(process.env.BOT_SEED);
const random = process.env.BOT_SEED && Number.isFinite(seed) ? mulberry32(seed) : Math.random;
const pick = (list) => list[Math.floor(random() * list.length)];

const VOCABULARY = [
  'useful', 'common', 'small', 'large', 'round', 'soft', 'hard', 'bright', 'dark', 'old', 'new', 'warm', 'cold', 'quiet',
  'loud', 'light', 'heavy', 'colourful', 'simple', 'popular', 'outdoors', 'indoors', 'daily', 'seasonal', 'shared', 'personal',
  'cheap', 'expensive', 'natural', 'modern', 'classic', 'fast', 'slow', 'sweet', 'sharp', 'smooth', 'tall', 'short', 'fun', 'serious',
];

function speak(body) {
  if (typeof body.word !== 'string' || !body.word) throw new BadRequest('word required');
  // The body carries what the check needs: this seat, the round and the statements so far.
  for (let attempt = 0; attempt < 50; attempt++) {
    const words = Array.from({ length: 4 }, () => pick(VOCABULARY));
    const statement = `It is ${words[0]}, ${words[1]} and ${words[2]}, maybe ${words[3]}.`;
    if (statementFault(statement, body.word, body) === null) return { statement };
  }
  const said = Array.isArray(body.statements) ? body.statements.length : 0;
  return { statement: `Something ${said} ${pick(VOCABULARY)} ${Math.floor(random() * 1e6)}` };
}

function vote(body) {
  const candidates = Array.isArray(body.candidates) ? body.candidates.filter(Number.isInteger) : [];
  if (!candidates.length) throw new BadRequest('candidates must list at least one seat');
  return { vote: pick(candidates) };
}

const routes = {
  'GET /health': async () => ({ status: 'healthy' }),
  'GET /info': async () => ({ name: NAME, ai_id: NAME, version: '1.0', description: 'random valid statements and votes' }),
  'POST /join': async (req) => {
    const body = await readJson(req);
    return { status: 'joined', game_id: body.game_id ?? null, seat: body.seat ?? null };
  },
  'POST /speak': async (req) => speak(await readJson(req)),
  'POST /vote': async (req) => vote(await readJson(req)),
};

serve({ port, name: NAME, routes });
