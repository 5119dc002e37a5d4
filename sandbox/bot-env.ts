// The environment a bot process gets: a scrubbed PATH (with a `python` where the host has only
// python3), the variables its folder asks to pass through (catarena-env.json), and the egress
// proxy settings of a bot that calls an LLM from a Docker sandbox.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const SCRUBBED_PATH = '/usr/local/bin:/usr/bin:/bin';
/**
 * Every bot process carries this variable: `<owner token>.<fresh UUID per start>` (see ownerToken).
 * Descendants inherit it even after setsid or a double fork, so stop() can find them without
 * touching unrelated processes, the reaper can find every bot of a dead orchestrator, and a later
 * run can tell whether the orchestrator that started a bot is still alive.
 */
export const MARKER_VAR = 'CATARENA_BOT_ID';

let botPathCache: string | undefined;
/**
 * The bots' PATH: the scrubbed one, plus (last, so a real one wins) a folder whose `python` is
 * python3 where the host has no `python`. CATArena's environment has one and its chess examples
 * start with `python` (Debian's python-is-python3 gives the same on the host and in the image).
 */
export function botPath(): string {
  if (botPathCache !== undefined) return botPathCache;
  const dirs = SCRUBBED_PATH.split(':');
  const find = (name: string) => dirs.map((d) => path.join(d, name)).find((f) => fs.existsSync(f));
  const python3 = find('python3');
  botPathCache = SCRUBBED_PATH;
  if (!find('python') && python3) {
    const shims = path.join(os.tmpdir(), `catarena-shims-${process.getuid?.() ?? 'user'}`);
    try {
      fs.mkdirSync(shims, { recursive: true });
      const link = path.join(shims, 'python');
      if (!fs.existsSync(link)) fs.symlinkSync(python3, link);
      botPathCache = `${SCRUBBED_PATH}:${shims}`;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') botPathCache = `${SCRUBBED_PATH}:${shims}`;
    }
  }
  return botPathCache;
}

// ---------------------------------------------------------------------------------------------
// Pass-through environment

/**
 * A bot folder may hold `catarena-env.json` = {"passEnv": ["OPENAI_API_KEY", "CATARENA_LLM_BASE_URL"]}:
 * the NAMES of variables to copy from the orchestrator's environment into the bot's (the
 * LLM-player bot calls an LLM API at play time and needs its key, which must never be written into
 * a bot folder). Only the listed names, only those set (non-empty), only names matching
 * /^[A-Z][A-Z0-9_]*$/, never one of the scrubbed base (PATH, HOME, …) or the marker; options.env
 * still wins over them. Anything else in the file, or a malformed file, is ignored with a note in
 * the bot's log. The process sandbox isolates nothing (a bot runs as the orchestrator's user), so
 * this opens no new door; it only keeps the scrubbed default for every bot that does not ask.
 * The Docker sandbox passes no variable: its containers have no network and hold no host secret;
 * a bot that calls an LLM reaches it there through the egress proxy instead (egressFor below).
 */
export const PASS_ENV_FILE = 'catarena-env.json';
const PASS_ENV_NAME = /^[A-Z][A-Z0-9_]*$/;
const PROXY_NAMES = new Set(['HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY']);
const BASE_ENV_NAMES = new Set(['PATH', 'HOME', 'LANG', 'PYTHONUNBUFFERED', 'PYTHONDONTWRITEBYTECODE', MARKER_VAR]);

/** The variables a bot folder's catarena-env.json asks for, with their values from `source`. */
export function passEnvFor(
  dir: string,
  source: NodeJS.ProcessEnv = process.env,
): { env: Record<string, string>; notes: string[] } {
  const file = path.join(dir, PASS_ENV_FILE);
  const env: Record<string, string> = {};
  const notes: string[] = [];
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return { env, notes };
  }
  let names: unknown;
  try {
    names = (JSON.parse(text) as { passEnv?: unknown } | null)?.passEnv;
  } catch {
    names = undefined;
  }
  if (!Array.isArray(names))
    return { env, notes: [`${PASS_ENV_FILE} is not {"passEnv": [names]}: no variable passed`] };
  for (const name of names) {
    if (typeof name !== 'string' || !PASS_ENV_NAME.test(name) || BASE_ENV_NAMES.has(name)) {
      notes.push(`${PASS_ENV_FILE}: ${JSON.stringify(name)} is not a variable name that may be passed; ignored`);
      continue;
    }
    // The proxy variables are often set in lower case only (curl reads those first).
    const value = PROXY_NAMES.has(name) ? source[name.toLowerCase()] || source[name] : source[name];
    if (value !== undefined && value !== '') env[name] = value;
  }
  return { env, notes };
}

/** Where a bot's LLM calls go in an isolated sandbox (catarena-env.json's "egress"). */
export interface BotEgress {
  /** The real endpoint (host side). */
  upstream: string;
  /** Headers the egress proxy sets (the key, read from the orchestrator's environment). */
  headers: Record<string, string>;
  /** The variable that holds the base URL in the bot's environment. */
  baseUrlVar: string;
  /** The key variables the bot expects: given a placeholder inside the container. */
  keyVars: string[];
}

const KEY_HEADERS: Record<string, (key: string) => Record<string, string>> = {
  authorization: (key) => ({ authorization: `Bearer ${key}` }),
  'x-api-key': (key) => ({ 'x-api-key': key }),
  'x-goog-api-key': (key) => ({ 'x-goog-api-key': key }),
};

/**
 * catarena-env.json may also say where the bot's LLM is, for sandboxes without network:
 * {"egress": {"baseUrlVar": "CATARENA_LLM_BASE_URL", "baseUrl": "https://…", "keyVars": ["OPENAI_API_KEY"],
 * "keyHeader": "authorization" | "x-api-key" | "x-goog-api-key"}}. The endpoint is the orchestrator's
 * value of baseUrlVar, else baseUrl; the key is sent by the egress proxy, never put in the container.
 */
export function egressFor(dir: string, source: NodeJS.ProcessEnv = process.env): BotEgress | null {
  let spec: Record<string, unknown> | undefined;
  try {
    spec = (
      JSON.parse(fs.readFileSync(path.join(dir, PASS_ENV_FILE), 'utf8')) as { egress?: Record<string, unknown> } | null
    )?.egress;
  } catch {
    return null;
  }
  if (!spec || typeof spec !== 'object') return null;
  const baseUrlVar =
    typeof spec.baseUrlVar === 'string' && PASS_ENV_NAME.test(spec.baseUrlVar)
      ? spec.baseUrlVar
      : 'CATARENA_LLM_BASE_URL';
  const upstream = (
    source[baseUrlVar]?.trim() || (typeof spec.baseUrl === 'string' ? spec.baseUrl.trim() : '')
  ).replace(/\/+$/, '');
  if (!/^https?:\/\//.test(upstream)) return null;
  const keyVars = Array.isArray(spec.keyVars)
    ? spec.keyVars.filter((v): v is string => typeof v === 'string' && PASS_ENV_NAME.test(v))
    : [];
  const keyVar = keyVars.find((v) => source[v]?.trim());
  const toHeader =
    KEY_HEADERS[typeof spec.keyHeader === 'string' ? spec.keyHeader : 'authorization'] ?? KEY_HEADERS.authorization!;
  return { upstream, headers: keyVar ? toHeader(source[keyVar]!.trim()) : {}, baseUrlVar, keyVars };
}
