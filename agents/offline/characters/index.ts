// The offline characters. Each learning rule is written once (one file each) and played in every
// game through that game's ParamSpace; the games supply only their knobs, priors and words.
export { aggressive, type Answer, type Counter } from './aggressive.ts';
export { cautious } from './cautious.ts';
export { imitator } from './imitator.ts';
