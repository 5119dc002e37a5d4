// The game as the LLM-player sees it. Every game brings its own turn builder from its folder:
// games/<game>/player/<game>-player.mjs, copied next to this file by the LLM-player agent (the
// descriptor's playerLibs). It turns one decision request of the game's protocol into a Turn: the
// game id, the state as text for the prompt, the legal actions as numbered options ({label,
// aliases?, value}), how an option becomes the HTTP answer, and optionally `prompt` (the whole
// user prompt, e.g. for a free-text answer) and `free` (reads a free answer). This file holds only
// what every turn builder may use: BadRequest and the HTTP helpers of the kit below.

export class BadRequest extends Error {}

/** The game server: env CATARENA_GAME_SERVER (set by catarena), else what the request said, else CATArena's port. */
function serverUrl(fromRequest, fallbackPort) {
  const v = (process.env.CATARENA_GAME_SERVER || fromRequest || '').trim();
  if (!v) return `http://localhost:${fallbackPort}`;
  if (/^\d+$/.test(v)) return `http://localhost:${v}`;
  return v.replace(/\/+$/, '');
}

/** GET url → JSON, with "localhost" tried as 127.0.0.1 then ::1; null on any failure. */
async function getJson(url, timeoutMs) {
  const u = new URL(url);
  const hosts = u.hostname === 'localhost' ? ['127.0.0.1', '[::1]'] : [u.hostname];
  const until = Date.now() + timeoutMs;
  for (const host of hosts) {
    u.hostname = host;
    const left = until - Date.now();
    if (left < 50) break;
    try {
      const res = await fetch(u.href, { signal: AbortSignal.timeout(left) });
      if (res.status === 200) return await res.json();
      return null;
    } catch {
      // try the next address
    }
  }
  return null;
}

/** A bounded map (several games at once, none remembered forever). */
function boundedSet(map, key, value) {
  map.set(key, value);
  if (map.size > 1000) map.delete(map.keys().next().value);
}

/**
 * The game named in game.json: its `<game>-player.mjs`, exporting `createPlayer(config, kit)` →
 * {name?, defaultMoveMs?, turnPath or turnPaths, routes, turn(body)}.
 */
export async function loadGame(config) {
  const name = String(config.game ?? '');
  const file = new URL(`./${name.replace(/[^\w-]/g, '')}-player.mjs`, import.meta.url);
  let mod;
  try {
    mod = await import(file.href);
  } catch (err) {
    throw new Error(`game.json names the game "${name}", which has no ${name}-player.mjs here (${err.message})`);
  }
  return mod.createPlayer(config, { BadRequest, serverUrl, getJson, boundedSet });
}
