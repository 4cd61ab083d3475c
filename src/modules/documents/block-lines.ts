import type StateBlock from 'markdown-it/lib/rules_block/state_block.mjs';

/** A line of a markdown-it block rule's source, without its indentation (every block rule's). */
export const lineOf = (state: StateBlock, line: number) =>
  state.src.slice((state.bMarks[line] ?? 0) + (state.tShift[line] ?? 0), state.eMarks[line]);
