/**
 * Where the board's cards go: every card the same size, in columns at least MIN_CARD_WIDTH wide, each
 * placed in its slot by a transform. A card that moves then costs a composite, not a layout of the
 * cards after it: ten pages laying out a hundred cards per state change kept the machine's cores busy
 * and the daemon waiting (bench/web.ts).
 */
export const MIN_CARD_WIDTH = 300;
export const CARD_GAP = 12;
/** Name, meta, title, chips, a question of two lines and a tail of four (src/web/wire.ts, TAIL_LINES). */
export const CARD_HEIGHT = 184;

export interface CardLayout {
  columns: number;
  cardWidth: number;
}

/** The columns a board this wide holds, and the width of each card in them. */
export function cardLayout(boardWidth: number): CardLayout {
  const columns = Math.max(1, Math.floor((boardWidth + CARD_GAP) / (MIN_CARD_WIDTH + CARD_GAP)));
  const cardWidth = Math.max(0, Math.floor((boardWidth - CARD_GAP * (columns - 1)) / columns));
  return { columns, cardWidth };
}

/** The transform that puts the card at `index` (in the board's order) in its slot. */
export function slotTransform(index: number, { columns, cardWidth }: CardLayout): string {
  const x = (index % columns) * (cardWidth + CARD_GAP);
  const y = Math.floor(index / columns) * (CARD_HEIGHT + CARD_GAP);
  return `translate(${x}px, ${y}px)`;
}

/** How tall the board is with `count` cards. */
export function boardHeight(count: number, { columns }: CardLayout): number {
  const rows = Math.ceil(count / columns);
  return rows === 0 ? 0 : rows * (CARD_HEIGHT + CARD_GAP) - CARD_GAP;
}

/**
 * The width a card's tail has for text: the card less its left border (5 px), its padding (0.8rem each
 * side) and the tail's own (0.4rem each side), as src/web/page/styles.css draws them.
 */
export function tailWidth(cardWidth: number): number {
  return cardWidth - (5 + 2 * 12.8 + 2 * 6.4);
}
