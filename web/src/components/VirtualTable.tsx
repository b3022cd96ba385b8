import {
  elementScroll,
  observeElementOffset,
  observeElementRect,
  Virtualizer,
} from '@tanstack/virtual-core';
import type { ComponentChildren } from 'preact';
import { useEffect, useLayoutEffect, useReducer, useRef, useState } from 'preact/hooks';

/**
 * A table that renders only the rows in view (@tanstack/virtual-core), so 20,000 rows scroll
 * smoothly. It keeps table semantics for screen readers (role=table, aria-rowcount and
 * aria-rowindex on each rendered row); the scroll area is focusable so the keyboard scrolls it.
 * Divs with ARIA roles, not <table>: rows are absolutely positioned (biome.json override).
 */
export interface Column<T> {
  header: string;
  render: (row: T) => ComponentChildren;
  /** CSS grid track, e.g. '2fr' or '8rem'; default '1fr'. */
  width?: string;
  align?: 'start' | 'end';
}

export interface VirtualTableProps<T> {
  rows: readonly T[];
  columns: readonly Column<T>[];
  rowKey: (row: T) => string;
  /** The table's accessible name. */
  label: string;
  rowHeight?: number;
  /** The scroll area's height in px. */
  height?: number;
}

export function VirtualTable<T>({
  rows,
  columns,
  rowKey,
  label,
  rowHeight = 36,
  height = 480,
}: VirtualTableProps<T>) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const [virtualizer] = useState(
    () =>
      new Virtualizer<HTMLDivElement, Element>({
        count: rows.length,
        getScrollElement: () => scrollRef.current,
        estimateSize: () => rowHeight,
        overscan: 10,
        scrollToFn: elementScroll,
        observeElementRect,
        observeElementOffset,
        onChange: () => rerender(0),
      }),
  );
  virtualizer.setOptions({
    ...virtualizer.options,
    count: rows.length,
    estimateSize: () => rowHeight,
  });
  useLayoutEffect(() => virtualizer._didMount(), [virtualizer]);
  useEffect(() => virtualizer._willUpdate());

  const template = columns.map((column) => column.width ?? '1fr').join(' ');
  const items = virtualizer.getVirtualItems();
  return (
    <div class="vtable" role="table" aria-label={label} aria-rowcount={rows.length + 1}>
      <div class="vtable-head" role="rowgroup">
        <div
          class="vtable-row"
          role="row"
          aria-rowindex={1}
          style={{ gridTemplateColumns: template }}
        >
          {columns.map((column) => (
            <div
              key={column.header}
              role="columnheader"
              class={column.align === 'end' ? 'num' : ''}
            >
              {column.header}
            </div>
          ))}
        </div>
      </div>
      <div
        class="vtable-body"
        role="rowgroup"
        ref={scrollRef}
        tabIndex={0}
        style={{ maxHeight: `${height}px` }}
      >
        <div style={{ height: `${virtualizer.getTotalSize()}px`, position: 'relative' }}>
          {items.map((item) => {
            const row = rows[item.index];
            if (row === undefined) return null;
            return (
              <div
                key={rowKey(row)}
                class="vtable-row"
                role="row"
                aria-rowindex={item.index + 2}
                style={{
                  gridTemplateColumns: template,
                  height: `${rowHeight}px`,
                  transform: `translateY(${item.start}px)`,
                }}
              >
                {columns.map((column) => (
                  <div key={column.header} role="cell" class={column.align === 'end' ? 'num' : ''}>
                    {column.render(row)}
                  </div>
                ))}
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}
