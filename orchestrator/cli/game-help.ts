// Help text that depends on the games, generated from their descriptors so that every registered
// game appears with its own defaults.
import type { GameFormat } from '../../games/core/descriptor.ts';
import { defaultGameIds, gameDescriptor, gameIds } from '../../games/registry.ts';

/** What one rep is in each format. */
const REP_MEANING: Record<GameFormat, string> = {
  pairs: 'colour-swapped game pairs per pairing',
  tables: 'table rounds per table',
  duplicate: 'boards per duplicate match',
};

/** What a rep is, per game: "gomoku, chess: colour-swapped game pairs per pairing; …". */
export function repMeaningHelp(): string {
  return formats()
    .map((format) => `${gamesOf(format).join(', ')}: ${REP_MEANING[format]}`)
    .join('; ');
}

const formats = () => [...new Set(gameIds().map((g) => gameDescriptor(g).format))];
const gamesOf = (format: GameFormat) => gameIds().filter((g) => gameDescriptor(g).format === format);

/** Per game: "gomoku 1 (paper 4)"; games grouped by what a rep is. */
export function repsHelp(): string {
  return formats()
    .map((format) => {
      const defaults = gamesOf(format).map((g) => {
        const d = gameDescriptor(g);
        const paper = d.presets.paper.reps;
        return `${g} ${d.defaults.reps}${paper !== undefined && paper !== d.defaults.reps ? ` (paper ${paper})` : ''}`;
      });
      return `${REP_MEANING[format]}: ${defaults.join(', ')}`;
    })
    .join('; ');
}

/** Per game: "gomoku 10000, …, holdem 3000". */
export function moveTimeoutHelp(): string {
  return gameIds()
    .map((g) => `${g} ${gameDescriptor(g).defaults.moveTimeoutMs}`)
    .join(', ');
}

/** "default: gomoku,chess,holdem,bridge; also: undercover". */
export function gamesHelp(): string {
  const others = gameIds().filter((g) => !defaultGameIds().includes(g));
  return `default: ${defaultGameIds().join(',')}${others.length ? `; also: ${others.join(',')}` : ''}`;
}
