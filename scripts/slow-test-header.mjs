// A test file that takes over 30 s says why in its header comment, on a line that starts
// "// Over 30 s:". Shared by scripts/run-tests.mjs (which marks such files in its list of the
// slowest) and tests/durations-headers.test.ts (which checks the files tests/durations.json lists).
export const SLOW_FILE_S = 30;

/** The leading block of // comment lines of a file's text says why the file is slow. */
export function headerExplainsSlowness(text) {
  const header = text.split(/\n(?!\/\/)/)[0];
  return /^\/\/ Over 30 s: \S/m.test(header);
}
