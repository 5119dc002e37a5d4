// BullMQ key prefix and queue names, apart from the connection so that code which only names
// keys (the run index) does not load bullmq and ioredis on every start.
/** Every catarena key in Redis starts with `catarena:`. */
export const PREFIX = 'catarena';
export const MATCH_QUEUE = 'matches';
export const TOURNEY_QUEUE = 'tourneys';
