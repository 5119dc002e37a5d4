// Heuristic Undercover bot (plain node, no dependencies): clues from an embedded association list
// and evidence-based votes (engine.mjs); knobs from params.json. Usage: node bot.mjs <port>.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BadRequest, portArg, readJson, serve } from './bot-http.mjs';
import { knobsFrom, speak, vote } from './engine.mjs';

const port = portArg();
const NAME = 'heuristic';
const HERE = path.dirname(fileURLToPath(import.meta.url));

let params = {};
try {
  params = JSON.parse(fs.readFileSync(path.join(HERE, 'params.json'), 'utf8'));
} catch {
  // no params.json: the defaults
}
const knobs = knobsFrom(params);

// mulberry32, seeded from params.json's seed (or BOT_SEED): the bot's noise is reproducible.
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
const seed = Number(process.env.BOT_SEED ?? params.seed ?? 1) || 1;
const random = mulberry32(seed);

/**
 * params.json's `deterministic: true` (anchor pools, docs/anchors.md): a generator per request,
 * seeded by `seed` and the request without its game_id (FNV-1a), so the same request gets the
 * same answer in any game order; otherwise the process's one stream.
 */
function requestRandom(body) {
  if (params.deterministic !== true) return random;
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (const ch of JSON.stringify({ ...body, game_id: undefined })) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
  return mulberry32(h);
}

const routes = {
  'GET /health': async () => ({ status: 'healthy' }),
  'GET /info': async () => ({ name: NAME, ai_id: NAME, version: '1.0', description: 'association-list clues, evidence-based votes', knobs }),
  'POST /join': async (req) => {
    const body = await readJson(req);
    return { status: 'joined', game_id: body.game_id ?? null, seat: body.seat ?? null };
  },
  'POST /speak': async (req) => {
    const body = await readJson(req);
    if (typeof body.word !== 'string' || !body.word) throw new BadRequest('word required');
    return { statement: speak(body, knobs, requestRandom(body)) };
  },
  'POST /vote': async (req) => {
    const body = await readJson(req);
    const target = vote(body, knobs, requestRandom(body));
    if (target === null) throw new BadRequest('candidates must list at least one seat');
    return { vote: target };
  },
};

serve({ port, name: NAME, routes });
