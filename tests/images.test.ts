// The offline-built bot runtime image (docker/build-images.ts). The recipe/tag tests always run;
// the ones that need Docker run when CATARENA_DOCKER=1 (set by .ci/run) or `docker info` works.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { botRuntimeTag, canonicalJson } from '../docker/image-tags.ts';
import { workerImageTag } from '../docker/build-worker-image.ts';
import { dockerEngineAnswers } from './helpers/bots.ts';
import {
  DEFAULT_RECIPE_PATH,
  ensureBotRuntimeImage,
  loadRecipe,
  parseDeb822Mirror,
  parseSourcesListMirror,
  type EnsureImageResult,
} from '../docker/build-images.ts';

const dockerWorks =
  process.env.CATARENA_DOCKER === '1' || (process.env.CATARENA_DOCKER !== '0' && dockerEngineAnswers());

describe('bot runtime recipe and tag', () => {
  let tmp: string;
  beforeAll(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'catarena-recipe-'));
  });
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

  const writeCopy = (name: string, value: unknown, indent?: number) => {
    const file = path.join(tmp, name);
    fs.writeFileSync(file, JSON.stringify(value, null, indent));
    return file;
  };

  it('tags by a 12-hex hash of the canonical recipe: formatting and key order do not count', () => {
    const tag = botRuntimeTag();
    expect(tag).toMatch(/^catarena\/bot-runtime:[0-9a-f]{12}$/);
    const recipe = JSON.parse(fs.readFileSync(DEFAULT_RECIPE_PATH, 'utf8')) as Record<string, unknown>;
    const reordered = Object.fromEntries(Object.entries(recipe).reverse());
    expect(botRuntimeTag({ recipePath: writeCopy('same.json', reordered) })).toBe(tag);
    expect(botRuntimeTag({ recipePath: writeCopy('same-indented.json', recipe, 4) })).toBe(tag);
  });

  it('changes the tag when the recipe content changes', () => {
    const tag = botRuntimeTag();
    const recipe = loadRecipe();
    const withPackage = { ...recipe, packages: [...recipe.packages, 'python3-scipy'] };
    const withEnv = { ...recipe, env: { ...recipe.env, PYTHONUNBUFFERED: '1' } };
    const tagA = botRuntimeTag({ recipePath: writeCopy('more-packages.json', withPackage) });
    const tagB = botRuntimeTag({ recipePath: writeCopy('more-env.json', withEnv) });
    expect(new Set([tag, tagA, tagB]).size).toBe(3);
    expect(tagA.split(':')[0]).toBe('catarena/bot-runtime');
  });

  it('canonicalJson sorts keys at every level and keeps array order', () => {
    expect(canonicalJson({ b: [2, 1], a: { d: 1, c: 'x' } })).toBe('{"a":{"c":"x","d":1},"b":[2,1]}');
  });

  it('rejects an invalid recipe with a clear message', () => {
    const file = writeCopy('bad.json', { ...loadRecipe(), packages: 'bash' });
    // The builder validates the recipe before anything is built (the tag alone is only a hash of it).
    expect(() => loadRecipe(file)).toThrow(/invalid recipe .*packages/);
  });

  it('the Dockerfile installs the same packages and sets the same env as the recipe', () => {
    const recipe = loadRecipe();
    const dockerfile = fs.readFileSync(path.join(path.dirname(DEFAULT_RECIPE_PATH), 'Dockerfile'), 'utf8');
    const install = /apt-get install[^\n]*\\\n([^\n]*)\\/.exec(dockerfile);
    expect(install, 'apt-get install line').toBeTruthy();
    expect(install![1]!.trim().split(/\s+/).sort()).toEqual([...recipe.packages].sort());
    expect(dockerfile).toMatch(new RegExp(`^FROM debian:${recipe.suite}-slim$`, 'm'));
    for (const [k, v] of Object.entries(recipe.env)) expect(dockerfile).toContain(`${k}=${v}`);
  });

  it('finds the Debian mirror in deb822 and one-line apt sources', () => {
    const deb822 = [
      'Types: deb',
      '# http://snapshot.debian.org/archive/debian-security/20250520T000000Z',
      'URIs: http://security.example/debian-security',
      'Suites: bookworm-security',
      '',
      'Types: deb',
      'URIs: http://mirror.example/debian/ http://other.example/debian',
      'Suites: bookworm bookworm-updates',
      'Components: main',
    ].join('\n');
    expect(parseDeb822Mirror(deb822, 'bookworm')).toBe('http://mirror.example/debian');
    expect(parseDeb822Mirror(deb822)).toBe('http://security.example/debian-security');
    expect(parseDeb822Mirror('# nothing\n')).toBeUndefined();
    const list = [
      '# deb http://commented.example/debian bookworm main',
      'deb-src http://src.example/debian bookworm main',
      'deb [arch=amd64 signed-by=/k.gpg] http://list.example/debian bookworm main',
    ].join('\n');
    expect(parseSourcesListMirror(list, 'bookworm')).toBe('http://list.example/debian');
  });
});

describe('worker image tag', () => {
  // The image copies node_modules: a tree that lacks a package the lock names must get another tag
  // than a complete one, or a later build is skipped as "up to date" with the broken image.
  it('changes with the installed node_modules tree, and only with it', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'catarena-worker-tag-'));
    const complete = path.join(dir, 'complete.json');
    const partial = path.join(dir, 'partial.json');
    fs.writeFileSync(complete, JSON.stringify({ packages: { 'node_modules/@ai-sdk/openai': { version: '3.0.137' } } }));
    fs.writeFileSync(partial, JSON.stringify({ packages: {} }));
    expect(workerImageTag(undefined, complete)).toBe(workerImageTag(undefined, complete));
    expect(workerImageTag(undefined, complete)).not.toBe(workerImageTag(undefined, partial));
    expect(workerImageTag(undefined, path.join(dir, 'absent.json'))).not.toBe(workerImageTag(undefined, partial));
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe.skipIf(!dockerWorks)('bot runtime image (docker)', () => {
  let first: EnsureImageResult;
  const run = (args: string[]) =>
    execa('docker', ['run', '--rm', '--network', 'none', '--user', '65534:65534', first.tag, ...args], {
      reject: false,
      timeout: 60_000,
    });

  beforeAll(async () => {
    // Cold (debootstrap) takes a minute or two; with the image or the cached rootfs, seconds.
    first = await ensureBotRuntimeImage({ log: () => {} });
  }, 15 * 60_000);

  it('exists under the hash tag and as :latest', async () => {
    expect(first.tag).toBe(botRuntimeTag());
    const ids = await Promise.all(
      [first.tag, 'catarena/bot-runtime:latest'].map(async (ref) => {
        const r = await execa('docker', ['image', 'inspect', '--format', '{{.Id}}', ref], { reject: false });
        expect(r.exitCode, `${ref} exists`).toBe(0);
        return r.stdout.trim();
      }),
    );
    expect(ids[0]).toBe(ids[1]);
    const labels = await execa('docker', ['image', 'inspect', '--format', '{{json .Config.Labels}}', first.tag]);
    expect(JSON.parse(labels.stdout)['org.catarena.recipe-hash']).toBe(first.tag.split(':')[1]);
  });

  it('a second call is a fast no-op', async () => {
    const started = Date.now();
    const second = await ensureBotRuntimeImage({ log: () => {} });
    expect(second).toMatchObject({ tag: first.tag, built: false, source: 'existing' });
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('has node >= 18', async () => {
    const r = await run(['node', '--version']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(Number(/^v(\d+)\./.exec(r.stdout.trim())?.[1])).toBeGreaterThanOrEqual(18);
  });

  it('has python3 with flask, requests and numpy', async () => {
    const r = await run(['python3', '-c', 'import flask, requests, numpy; print(numpy.array([1, 2]).sum())']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe('3');
  });

  it('has `python` as python3 (CATArena chess examples start with `python`)', async () => {
    const r = await run(['python', '-c', 'import sys, flask; print(sys.version_info[0])']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe('3');
  });

  it('has socat, bash and curl', async () => {
    const r = await run(['bash', '-c', 'socat -V | grep -m1 "socat version" && command -v curl']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/socat version 1\.\d/);
  });

  it('runs as the uid given with --user, with a readable root filesystem', async () => {
    const r = await run(['bash', '-c', 'id -u; id -g; ls / >/dev/null && echo ok']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout.trim().split('\n')).toEqual(['65534', '65534', 'ok']);
  });
});
