import type { Align, Block, Inline } from './model.js';

interface Record_ {
  orderIndex: string;
  values: Record<string, unknown>;
}

/**
 * A grid table's columns (in view order) and rows (by `orderIndex`), each cell the inline
 * content of its fragment's first paragraph: what Markdown and HTML make of a table.
 */
export function tableCells(node: Block): {
  columns: { id: string; title: string; align: Align }[];
  rows: Inline[][][];
} {
  const data = node.data as {
    view?: { columns?: string[] };
    definition?: Record<string, { title?: string; textAlignment?: Align }>;
    records?: Record<string, Record_>;
  };
  const fragments = new Map((node.fragments ?? []).map((f) => [f.fragment, f.nodes]));
  const columns = (data.view?.columns ?? []).map((id) => ({
    id,
    title: data.definition?.[id]?.title ?? '',
    align: data.definition?.[id]?.textAlignment ?? 'left',
  }));
  const records = Object.values(data.records ?? {}).sort((a, b) =>
    a.orderIndex < b.orderIndex ? -1 : a.orderIndex > b.orderIndex ? 1 : 0,
  );
  const rows = records.map((record) =>
    columns.map(({ id }) => {
      const value = record.values[id];
      const cell = typeof value === 'string' ? fragments.get(value) : undefined;
      return cell === undefined
        ? typeof value === 'number' || typeof value === 'boolean'
          ? [
              {
                object: 'text',
                leaves: [{ object: 'leaf', text: String(value), marks: [] }],
              } as Inline,
            ]
          : []
        : cell.flatMap((block, i) => [
            ...(i > 0
              ? [{ object: 'text', leaves: [{ object: 'leaf', text: ' ', marks: [] }] } as Inline]
              : []),
            ...((block.nodes ?? []).filter((n) => n.object !== 'block') as Inline[]),
          ]);
    }),
  );
  return { columns, rows };
}
