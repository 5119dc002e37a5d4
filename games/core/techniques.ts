// Bot-code techniques the evolution report looks for (reports/evolution/bot-profile.ts) that more
// than one game names in its descriptor's `techniques`.
import type { BotTechnique } from './descriptor.ts';

export const OPPONENT_MODELLING: BotTechnique = {
  id: 'opponent',
  label: 'opponent modelling',
  re: /opponent[\s_-]?model|\bvpip\b|aggression[\s_-]?factor/i,
};
export const CARD_COUNTING: BotTechnique = {
  id: 'cardcount',
  label: 'counting played cards',
  re: /played[\s_-]?cards|cards[\s_-]?played|count(ing)?[\s_-]?cards|\bvoids?\b/i,
};
