// catarena's release, as package.json names it (tests/run-format.test.ts keeps the two equal): the
// CLI's --version and the writer recorded in each run's format.json.
export const CATARENA_VERSION = '0.1.0';
