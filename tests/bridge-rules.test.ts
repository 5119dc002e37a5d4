// Bridge rules of one board in one room, from hand-built auctions and deals. Expected values come
// from the Laws of Duplicate Bridge (and where noted, how CATArena's server differs,
// docs/catarena-compat.md §5.4–5.5), not read back from the engine.
import { describe, expect, it } from 'vitest';
import { createRng } from '../util/rng.ts';
import { deck, type Card } from '../games/bridge/cards.ts';
import {
  auctionOver,
  boardFromDeal,
  bridge,
  currentTrick,
  finalContract,
  legalCalls,
  trickHistory,
  trickWinner,
  tricksWonOf,
  viewFor,
  type BridgeAction,
  type BridgeState,
  type Call,
  type CallAction,
} from '../games/bridge/rules.ts';

/** 'P', 'X', 'XX' or a bid like '1H', '3NT'. */
function callOf(spec: string): CallAction {
  if (spec === 'P') return { type: 'call', call_type: 'pass' };
  if (spec === 'X') return { type: 'call', call_type: 'double' };
  if (spec === 'XX') return { type: 'call', call_type: 'redouble' };
  return {
    type: 'call',
    call_type: 'bid',
    level: Number(spec[0]),
    suit: spec.slice(1) as 'C' | 'D' | 'H' | 'S' | 'NT',
  };
}

/** Each call made by the seat to move. */
function bid(state: BridgeState, specs: string): BridgeState {
  for (const spec of specs.split(/\s+/).filter(Boolean)) state = bridge.apply(state, state.toMove!, callOf(spec));
  return state;
}

function fresh(board = 1, variant: 'standard' | 'variant' = 'standard', seed = 7): BridgeState {
  return bridge.init(variant, createRng(seed), { seats: 4, options: { board } });
}

/** Calls as the rules store them, starting with `first`, for the pure auction helpers. */
function callsFrom(first: number, specs: string): Call[] {
  return specs.split(/\s+/).map((spec, i) => {
    const { type: _type, ...rest } = callOf(spec);
    return { seat: (first + i) % 4, ...rest };
  });
}

// Every seat holds cards in every suit: rank r (0 = deuce) of suit i goes to seat (r + i) mod 4.
// N: ♣2 6 T A, ♦5 9 K, ♥4 8 Q, ♠3 7 J;  E: ♣3 7 J, ♦2 6 T A, ♥5 9 K, ♠4 8 Q;
// S: ♣4 8 Q, ♦3 7 J, ♥2 6 T A, ♠5 9 K;  W: ♣5 9 K, ♦4 8 Q, ♥3 7 J, ♠2 6 T A.
const MIXED: Card[][] = [[], [], [], []];
deck().forEach((card, id) => MIXED[((id % 13) + Math.floor(id / 13)) % 4]!.push(card));

// N holds the top three of every suit and the ♠J: every card N holds is a winner in no-trump.
const TOPS: Card[][] = (() => {
  const n = deck().filter((c) => 'AKQ'.includes(c[0]!) || c === 'JS');
  const rest = deck().filter((c) => !n.includes(c));
  return [n, rest.slice(0, 13), rest.slice(13, 26), rest.slice(26)];
})();

/** Plays the board out with a seeded random legal card each turn. */
function playOut(state: BridgeState, seed: number): BridgeState {
  const rng = createRng(seed);
  while (state.phase === 'playing') {
    const seat = state.toMove!;
    const moves = bridge.legalActions(state, seat);
    state = bridge.apply(state, seat, moves[rng.int(0, moves.length - 1)]!);
  }
  return state;
}

describe('auction', () => {
  it('the dealer calls first: N, E, S, W on boards 1..4, N again on board 5', () => {
    expect([1, 2, 3, 4, 5].map((b) => bridge.toMove(fresh(b)))).toEqual([0, 1, 2, 3, 0]);
    expect(fresh(3).dealer).toBe(2);
    expect(bridge.validate(fresh(1), 1, callOf('P'))).toBe('Not your turn');
  });

  it('rejects an insufficient bid and accepts a higher one', () => {
    const s = bid(fresh(), '1H');
    expect(bridge.validate(s, 1, callOf('1D'))).toBe('Illegal call');
    expect(bridge.validate(s, 1, callOf('1H'))).toBe('Illegal call');
    expect(bridge.validate(s, 1, callOf('1S'))).toBeNull();
    const t = bid(fresh(), '1NT');
    expect(bridge.validate(t, 1, callOf('1S'))).toBe('Illegal call');
    expect(bridge.validate(t, 1, callOf('2C'))).toBeNull();
  });

  it('rejects malformed bids with CATArena-style reasons', () => {
    const s = fresh();
    expect(bridge.validate(s, 0, { type: 'call', call_type: 'bid', level: 8, suit: 'S' })).toBe(
      'Invalid level or suit',
    );
    expect(bridge.validate(s, 0, { type: 'call', call_type: 'bid', level: 1, suit: 'X' } as never)).toBe(
      'Invalid level or suit',
    );
    expect(bridge.validate(s, 0, { type: 'call', call_type: 'bid', level: '1', suit: 'S' } as never)).toBe(
      'Invalid level or suit',
    );
    expect(bridge.validate(s, 0, { type: 'call', call_type: 'bid', level: 1 })).toBe('Missing level or suit for bid');
    expect(bridge.validate(s, 0, { type: 'call', call_type: 'raise' } as never)).toBe('Invalid call type');
    expect(bridge.validate(s, 0, { type: 'play', card: 'AS' })).toBe('Not in playing phase');
  });

  it("doubles only an opponent's last bid", () => {
    // Partner's bid cannot be doubled.
    expect(bridge.validate(bid(fresh(), '1H P'), 2, callOf('X'))).toBe('Illegal call');
    // Opponent's bid can.
    expect(bridge.validate(bid(fresh(), '1H'), 1, callOf('X'))).toBeNull();
    // N 1H, E 1S, S P: the last bid is W's partner's 1S, so W cannot double N's earlier 1H.
    expect(bridge.validate(bid(fresh(), '1H 1S P'), 3, callOf('X'))).toBe('Illegal call');
    // Nor can the same bid be doubled twice.
    expect(bridge.validate(bid(fresh(), '1H X P'), 3, callOf('X'))).toBe('Illegal call');
    // A new bid clears the double: 1H X 2H, and W may double 2H (CATArena allows one double per auction).
    expect(bridge.validate(bid(fresh(), '1H X 2H'), 3, callOf('X'))).toBeNull();
  });

  it("redoubles only an opponents' double of our side's last bid, by either partner", () => {
    expect(bridge.validate(bid(fresh(), '1H'), 1, callOf('XX'))).toBe('Illegal call');
    expect(bridge.validate(bid(fresh(), '1H P'), 2, callOf('XX'))).toBe('Illegal call');
    // The doubled side redoubles: the bidder's partner right away, or the bidder after two passes.
    expect(bridge.validate(bid(fresh(), '1H X'), 2, callOf('XX'))).toBeNull();
    expect(bridge.validate(bid(fresh(), '1H X P P'), 0, callOf('XX'))).toBeNull();
    // The doubling side cannot redouble its own double.
    expect(bridge.validate(bid(fresh(), '1H X P'), 3, callOf('XX'))).toBe('Illegal call');
    // No second redouble, no double after a redouble.
    expect(bridge.validate(bid(fresh(), '1H X XX P'), 0, callOf('XX'))).toBe('Illegal call');
    expect(bridge.validate(bid(fresh(), '1H X XX'), 3, callOf('X'))).toBe('Illegal call');
    // A double of an earlier bid, with a new bid since, cannot be redoubled (CATArena allows it).
    expect(bridge.validate(bid(fresh(), '1H X 2H P'), 0, callOf('XX'))).toBe('Illegal call');
  });

  it('lists pass, every higher bid, then double or redouble when legal', () => {
    const open = legalCalls([], 0);
    expect(open).toHaveLength(1 + 35);
    expect(open[0]).toEqual({ type: 'call', call_type: 'pass' });
    expect(open[1]).toEqual({ type: 'call', call_type: 'bid', level: 1, suit: 'C' });
    const after3NT = legalCalls(callsFrom(0, '3NT'), 1);
    expect(after3NT.filter((c) => c.call_type === 'bid')).toHaveLength(4 * 5);
    expect(after3NT.at(-1)).toEqual({ type: 'call', call_type: 'double' });
    expect(legalCalls(callsFrom(0, '7NT X'), 2).map((c) => c.call_type)).toEqual(['pass', 'redouble']);
    expect(legalCalls(callsFrom(0, '7NT'), 2).map((c) => c.call_type)).toEqual(['pass']);
  });

  it('four passes pass the board out, scored 0 with no contract', () => {
    expect(auctionOver(callsFrom(0, 'P P P'))).toBe(false);
    const s = bid(fresh(3), 'P P P P');
    expect(s.phase).toBe('finished');
    expect(bridge.toMove(s)).toBeNull();
    const out = bridge.outcome(s)!;
    expect(out.reason).toBe('passed_out');
    expect(out.scores).toEqual([0.5, 0.5, 0.5, 0.5]);
    expect(out.detail).toMatchObject({
      ns_score: 0,
      contract: null,
      board: 3,
      dealer: 2,
      vulnerability: { ns: false, ew: true },
    });
  });

  it('three passes after a bid end the auction, not before', () => {
    let s = bid(fresh(), 'P 1H P P');
    expect(s.phase).toBe('bidding');
    expect(bridge.toMove(s)).toBe(0);
    s = bid(s, 'P');
    expect(s.phase).toBe('playing');
    expect(s.contract).toEqual({ level: 1, strain: 'H', doubled: 0, declarer: 1 });
    expect(bridge.outcome(s)).toBeNull();
  });

  it('the contract keeps its double status; a new bid clears it', () => {
    expect(finalContract(callsFrom(0, '1H X P P P'))).toMatchObject({ level: 1, strain: 'H', doubled: 1 });
    expect(finalContract(callsFrom(0, '1H X XX P P P'))).toMatchObject({ doubled: 2 });
    // CATArena would carry the double over: 1H X 2H P P P → 2H doubled.
    expect(finalContract(callsFrom(0, '1H X 2H P P P'))).toMatchObject({ level: 2, strain: 'H', doubled: 0 });
  });

  it('the declarer is the first of the side to name the strain, not the last bidder', () => {
    // N 1H, S 2H: N named hearts first, so N declares (CATArena: S).
    const s = bid(fresh(1), '1H P 2H P P P');
    expect(s.contract).toEqual({ level: 2, strain: 'H', doubled: 0, declarer: 0 });
    // N 1D, S 1S, N 2S: S named spades first.
    expect(finalContract(callsFrom(0, '1D P 1S P 2S P P P'))!.declarer).toBe(2);
    // An EW contract: E 1S, W 4S → E declares.
    expect(finalContract(callsFrom(0, 'P 1S P 4S P P P'))!.declarer).toBe(1);
    // The other side's bids in the strain do not count: N 1S, E 2S (cue), S 3H, W 4S → E.
    expect(finalContract(callsFrom(0, '1S 2S 3H 4S P P P'))!.declarer).toBe(1);
  });
});

describe('play', () => {
  it('trick winners: highest of the suit led in no-trump, highest trump otherwise', () => {
    const trick: [number, Card][] = [
      [0, '2H'],
      [1, 'AS'],
      [2, 'KH'],
      [3, '3C'],
    ];
    expect(trickWinner(trick, null)).toBe(2);
    expect(trickWinner(trick, 'S')).toBe(1);
    expect(trickWinner(trick, 'C')).toBe(3);
    expect(trickWinner(trick, 'D')).toBe(2);
    expect(
      trickWinner(
        [
          [0, 'AH'],
          [1, '2S'],
          [2, '3S'],
          [3, 'KH'],
        ],
        'S',
      ),
    ).toBe(2);
    expect(
      trickWinner(
        [
          [1, '9D'],
          [2, 'AC'],
          [3, 'TD'],
          [0, '2D'],
        ],
        'H',
      ),
    ).toBe(3);
  });

  it("declarer's LHO leads; suit must be followed; dummy is exposed after the lead and played by the declaring side", () => {
    // Board 1, N opens 1S and all pass: N declares, E leads, S is dummy.
    let s = bid(boardFromDeal('standard', MIXED, { board: 1 }), '1S P P P');
    expect(bridge.toMove(s)).toBe(1);
    expect(bridge.validate(s, 0, { type: 'play', card: '3S' })).toBe('Not your turn');
    expect(viewFor(s, 1).dummyHand).toBeNull();
    expect(bridge.validate(s, 1, { type: 'call', call_type: 'pass' })).toBe('Not in bidding phase');
    s = bridge.apply(s, 1, { type: 'play', card: '5H' });
    // Dummy's card is due: the dummy seat is asked, and sees the declarer's hand too.
    expect(bridge.toMove(s)).toBe(2);
    expect(viewFor(s, 2).declarerHand).toEqual(MIXED[0]);
    expect(viewFor(s, 0).declarerHand).toBeNull();
    expect(viewFor(s, 1).declarerHand).toBeNull();
    for (const seat of [0, 1, 3]) expect(viewFor(s, seat).dummyHand).toEqual(MIXED[2]);
    expect(viewFor(s, 1).hand).not.toContain('5H');
    expect(bridge.legalActions(s, 2)).toEqual(['2H', '6H', 'TH', 'AH'].map((card) => ({ type: 'play', card })));
    expect(bridge.validate(s, 2, { type: 'play', card: '4C' })).toBe('Illegal card play');
    expect(bridge.validate(s, 2, { type: 'play', card: 'KH' })).toBe("You don't have this card");
    expect(bridge.validate(s, 2, { type: 'play', card: '10H' })).toBe('Invalid card format');
    s = bridge.apply(s, 2, { type: 'play', card: 'AH' });
    s = bridge.apply(s, 3, { type: 'play', card: '3H' });
    expect(currentTrick(s)).toEqual([
      [1, '5H'],
      [2, 'AH'],
      [3, '3H'],
    ]);
    // Not dummy's turn now: no declarer hand for the dummy seat.
    expect(viewFor(s, 2).declarerHand).toBeNull();
    s = bridge.apply(s, 0, { type: 'play', card: '4H' });
    expect(currentTrick(s)).toEqual([]);
    expect(trickHistory(s)).toEqual([
      {
        trick_number: 1,
        leader: 1,
        cards: [
          [1, '5H'],
          [2, 'AH'],
          [3, '3H'],
          [0, '4H'],
        ],
        winner: 2,
      },
    ]);
    expect(tricksWonOf(s)).toEqual([1, 0]);
    // The trick winner (dummy) leads.
    expect(bridge.toMove(s)).toBe(2);
    expect(viewFor(s, 2).declarerHand).toEqual(MIXED[0]!.filter((c) => c !== '4H'));
  });

  it('a ruff wins the trick in a suit contract', () => {
    // E declares 1C after N passes; S leads. Give everyone a deal where W is void in diamonds.
    const deal: Card[][] = MIXED.map((h) => h.slice());
    // Swap W's diamonds (4D 8D QD) for N's clubs (2C 6C TC): W has no diamonds, N has 6 diamonds.
    deal[3] = deal[3]!.filter((c) => c[1] !== 'D').concat(['2C', '6C', 'TC']);
    deal[0] = deal[0]!.filter((c) => !['2C', '6C', 'TC'].includes(c)).concat(['4D', '8D', 'QD']);
    let s = bid(boardFromDeal('standard', deal, { board: 1 }), 'P 1C P P P');
    expect(s.contract!.declarer).toBe(1);
    expect(bridge.toMove(s)).toBe(2);
    for (const [seat, card] of [
      [2, '3D'],
      [3, '2C'],
      [0, 'KD'],
      [1, 'AD'],
    ] as const) {
      s = bridge.apply(s, seat, { type: 'play', card });
    }
    expect(s.tricks[0]!.winner).toBe(3);
    expect(tricksWonOf(s)).toEqual([0, 1]);
  });

  it('13 tricks finish the board; 7NT with every top card makes all 13', () => {
    let s = bid(boardFromDeal('standard', TOPS, { board: 1 }), '7NT P P P');
    s = playOut(s, 3);
    expect(s.phase).toBe('finished');
    expect(s.tricks).toHaveLength(13);
    expect(s.tricks.every((t) => t.winner === 0)).toBe(true);
    expect(bridge.toMove(s)).toBeNull();
    expect(bridge.legalActions(s, 0)).toEqual([]);
    expect(s.hands.every((h) => h.length === 0)).toBe(true);
    const out = bridge.outcome(s)!;
    expect(out.reason).toBe('played');
    // 7NT non-vulnerable made: 220 trick score + 300 game + 1000 grand slam.
    expect(out.detail).toMatchObject({
      ns_score: 1520,
      tricks: 13,
      contract: { level: 7, strain: 'NT', doubled: 0, declarer: 0 },
      board: 1,
      dealer: 0,
    });
    expect(out.scores).toEqual([1, 0, 1, 0]);
  });

  it("the score is from NS's side: EW going down is positive, NS going down negative", () => {
    // Board 1: E declares 7NT against N's top cards and takes nothing: 13 down NV = +650 for NS.
    let s = playOut(bid(boardFromDeal('standard', TOPS, { board: 1 }), 'P 7NT P P P'), 5);
    expect(s.result!.detail).toMatchObject({ ns_score: 650, tricks: 0, contract: { declarer: 1 } });
    expect(s.result!.scores).toEqual([1, 0, 1, 0]);
    // Same cards turned a seat: E holds the tops and N declares 7NT on board 1 → −650.
    const turned = [TOPS[3]!, TOPS[0]!, TOPS[1]!, TOPS[2]!];
    s = playOut(bid(boardFromDeal('standard', turned, { board: 1 }), '7NT P P P'), 5);
    expect(s.result!.detail).toMatchObject({ ns_score: -650, tricks: 0 });
    expect(s.result!.scores).toEqual([0, 1, 0, 1]);
  });

  it('apply never mutates its input', () => {
    const start = bid(boardFromDeal('standard', MIXED), '1S P P');
    const before = JSON.stringify(start);
    let s = bid(start, 'P');
    s = bridge.apply(s, 1, { type: 'play', card: '5H' });
    expect(JSON.stringify(start)).toBe(before);
    expect(() => bridge.apply(s, 2, { type: 'play', card: '4C' })).toThrow(/Illegal card play/);
  });
});

describe("variant ('magic'): partner card exchange", () => {
  it('the same seed gives the same deal in both rooms (and on any board number)', () => {
    const open = bridge.init('variant', createRng(99), { options: { board: 5 } });
    const closed = bridge.init('variant', createRng(99), { options: { board: 5 } });
    expect(closed.deal).toEqual(open.deal);
    expect(bridge.init('standard', createRng(99), { options: { board: 2 } }).deal).toEqual(open.deal);
    expect(bridge.init('variant', createRng(100)).deal).not.toEqual(open.deal);
    expect(open.deal.flat().sort()).toEqual(deck().sort());
  });

  it('asks N, S, E, W in turn and swaps one card between partners once both have chosen', () => {
    let s = bid(boardFromDeal('variant', MIXED, { board: 1 }), '1S P P P');
    expect(s.phase).toBe('exchanging');
    expect(bridge.toMove(s)).toBe(0);
    expect(bridge.legalActions(s, 0)).toEqual(MIXED[0]!.map((card) => ({ type: 'exchange', card })));
    expect(bridge.validate(s, 2, { type: 'exchange', card: 'AH' })).toBe('Not your turn');
    expect(bridge.validate(s, 0, { type: 'exchange', card: 'AH' })).toBe("You don't have this card");
    expect(bridge.validate(s, 0, { type: 'play', card: 'AC' })).toBe('Not in playing phase');

    s = bridge.apply(s, 0, { type: 'exchange', card: 'AC' });
    // Nothing moves until the partner has chosen, and the partner does not see N's choice.
    expect(s.hands[0]).toEqual(MIXED[0]);
    expect(viewFor(s, 0).exchange).toMatchObject({ given: 'AC', received: null });
    expect(viewFor(s, 2).exchange).toMatchObject({ given: null, received: null });
    expect(bridge.toMove(s)).toBe(2);
    expect(bridge.validate(s, 0, { type: 'exchange', card: 'KD' })).toBe('Exchange already completed');

    s = bridge.apply(s, 2, { type: 'exchange', card: 'AH' });
    expect(s.hands[0]).toContain('AH');
    expect(s.hands[0]).not.toContain('AC');
    expect(s.hands[2]).toContain('AC');
    expect(s.hands[2]).not.toContain('AH');
    expect(s.hands.map((h) => h.length)).toEqual([13, 13, 13, 13]);
    expect(viewFor(s, 0).exchange).toMatchObject({ given: 'AC', received: 'AH', swapped: [true, false] });
    expect(viewFor(s, 2).exchange).toMatchObject({ given: 'AH', received: 'AC' });
    // The opponents see that NS swapped, never which cards.
    const eastView = JSON.stringify(viewFor(s, 1));
    expect(eastView).not.toContain('"AC"');
    expect(eastView).not.toContain('"AH"');
    expect(bridge.toMove(s)).toBe(1);

    s = bridge.apply(s, 1, { type: 'exchange', card: '2D' });
    s = bridge.apply(s, 3, { type: 'exchange', card: '2S' });
    expect(s.hands[1]).toContain('2S');
    expect(s.hands[3]).toContain('2D');
    expect(JSON.stringify(viewFor(s, 0))).not.toContain('"2D"');
    // Play starts with declarer N's LHO; the record of the deal is untouched.
    expect(s.phase).toBe('playing');
    expect(bridge.toMove(s)).toBe(1);
    expect(s.deal).toEqual(MIXED);
    expect(s.deal.flat().concat().sort()).toEqual(s.hands.flat().sort());
  });

  it('a card received cannot be passed back: the swap is simultaneous', () => {
    let s = bid(boardFromDeal('variant', MIXED), '1S P P P');
    s = bridge.apply(s, 0, { type: 'exchange', card: 'AC' });
    // S cannot give N's ace back: S has not received it yet.
    expect(bridge.validate(s, 2, { type: 'exchange', card: 'AC' })).toBe("You don't have this card");
  });

  it('a passed-out board skips the exchange', () => {
    const s = bid(fresh(1, 'variant'), 'P P P P');
    expect(s.phase).toBe('finished');
    expect(s.exchange).toBeNull();
    expect(bridge.outcome(s)!.reason).toBe('passed_out');
  });
});

describe('random legal playouts', () => {
  it('always end with 52 distinct cards played, 13 tricks and consistent results', () => {
    const rng = createRng(2024);
    const reasons = new Set<string>();
    for (let board = 1; board <= 2000; board++) {
      const variant = board % 2 ? 'standard' : 'variant';
      let s = bridge.init(variant, createRng(board), { options: { board } });
      for (let step = 0; bridge.toMove(s) !== null; step++) {
        if (step > 500) throw new Error(`board ${board} did not end`);
        const seat = bridge.toMove(s)!;
        const moves = bridge.legalActions(s, seat);
        // In the auction: pass (listed first) half of the time, else one of the six cheapest bids
        // or a (re)double, so contracts land at every level instead of racing to 7NT.
        let pool: BridgeAction[] = moves;
        if (s.phase === 'bidding')
          pool =
            rng.int(0, 1) === 0 ? [moves[0]!] : moves.filter((m, i) => i <= 6 || (m as CallAction).call_type !== 'bid');
        const move = pool[rng.int(0, pool.length - 1)]!;
        if (bridge.validate(s, seat, move) !== null)
          throw new Error(`listed action ${JSON.stringify(move)} is not legal`);
        s = bridge.apply(s, seat, move);
      }
      const out = bridge.outcome(s)!;
      reasons.add(out.reason);
      expect(s.phase).toBe('finished');
      if (s.contract === null) {
        expect(out.reason).toBe('passed_out');
        expect(s.tricks).toHaveLength(0);
        continue;
      }
      expect(out.reason).toBe('played');
      const played = s.tricks.flatMap((t) => t.cards.map(([, c]) => c));
      expect(played).toHaveLength(52);
      expect(new Set(played).size).toBe(52);
      expect(s.tricksWon[0] + s.tricksWon[1]).toBe(13);
      expect(s.hands.every((h) => h.length === 0)).toBe(true);
      const trump = s.contract.strain === 'NT' ? null : s.contract.strain;
      for (const t of s.tricks) {
        expect(new Set(t.cards.map(([seat]) => seat)).size).toBe(4);
        expect(trickWinner(t.cards, trump)).toBe(t.winner);
      }
      // Each seat played exactly its hand as dealt, less the card it gave, plus the one it got.
      for (let seat = 0; seat < 4; seat++) {
        let hand: string[] = s.deal[seat]!.slice();
        if (variant === 'variant')
          hand = hand.filter((c) => c !== s.exchange!.given[seat]).concat(s.exchange!.received[seat]!);
        const mine = s.tricks.map((t) => t.cards.find(([p]) => p === seat)![1]);
        expect(mine.sort()).toEqual(hand.sort());
      }
      const ns = out.detail!.ns_score as number;
      expect(out.scores[0]).toBe(ns > 0 ? 1 : ns < 0 ? 0 : 0.5);
      expect(out.detail!.tricks).toBe(s.tricksWon[s.contract.declarer % 2]);
    }
    expect([...reasons].sort()).toEqual(['passed_out', 'played']);
  });
});
