import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

/**
 * A time-series line chart (uPlot) sized to its container. The canvas is hidden from assistive
 * technology; the figure's caption, the legend and a visually hidden table of the latest values
 * carry the same information.
 */
export interface Series {
  label: string;
  /** One value per time; null leaves a gap. */
  values: readonly (number | null)[];
  /** A CSS colour with enough contrast on white. */
  color: string;
}

export interface TimeChartProps {
  title: string;
  /** Unix seconds, ascending. */
  times: readonly number[];
  series: readonly Series[];
  height?: number;
  /** Formats an axis or table value. */
  format?: (value: number) => string;
}

const plain = (value: number) => value.toLocaleString('en', { maximumFractionDigits: 1 });

export function TimeChart({ title, times, series, height = 220, format = plain }: TimeChartProps) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = host.current;
    if (!element) return;
    const data: uPlot.AlignedData = [
      [...times],
      ...series.map((line) => line.values.map((value) => value)),
    ];
    const chart = new uPlot(
      {
        width: Math.max(element.clientWidth, 240),
        height,
        legend: { show: false },
        cursor: { drag: { x: false, y: false } },
        axes: [{}, { values: (_u, ticks) => ticks.map(format), size: 60 }],
        series: [
          {},
          ...series.map((line) => ({
            label: line.label,
            stroke: line.color,
            width: 2,
            spanGaps: false,
          })),
        ],
      },
      data,
      element,
    );
    const resize = new ResizeObserver(() =>
      chart.setSize({ width: Math.max(element.clientWidth, 240), height }),
    );
    resize.observe(element);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [times, series, height, format]);

  const last = times.length - 1;
  return (
    <figure class="chart">
      <figcaption>{title}</figcaption>
      <ul class="legend">
        {series.map((line) => (
          <li key={line.label}>
            <span class="swatch" style={{ background: line.color }} aria-hidden="true" />
            {line.label}
          </li>
        ))}
      </ul>
      <div ref={host} class="chart-canvas" aria-hidden="true" />
      <table class="visually-hidden">
        <caption>{title}, latest values</caption>
        <tbody>
          {series.map((line) => {
            const value = last >= 0 ? line.values[last] : null;
            return (
              <tr key={line.label}>
                <th scope="row">{line.label}</th>
                <td>{value === null || value === undefined ? 'no data' : format(value)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </figure>
  );
}
