import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import uPlotCss from 'uplot/dist/uPlot.min.css';
import { formatPrice, injectStyles } from '@motoparts/state';
import { dayLabel } from '../labels';

injectStyles('uplot-styles', uPlotCss);

const HEIGHT = 260;

/** Seconds of a shop day's UTC midnight: the axis shows it as that date (its zone is UTC). */
const secondsOf = (date: string) => Date.parse(`${date}T00:00:00Z`) / 1000;
const utc = (ts: number) => uPlot.tzDate(new Date(ts * 1000), 'UTC');

/**
 * Revenue per day as bars (uPlot, a small canvas chart library; this module is the Overview's own
 * chunk). Hidden from screen readers: the page's table under it holds the same figures.
 */
export default function RevenueChart({ days }: { days: { date: string; revenue: number }[] }) {
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const width = () => Math.max(240, el.clientWidth);
    const plot = new uPlot(
      {
        width: width(),
        height: HEIGHT,
        tzDate: utc,
        legend: { show: false },
        cursor: { y: false },
        scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(1, max * 1.1)] } },
        axes: [
          { stroke: '#555', grid: { show: false } },
          {
            stroke: '#555',
            size: 70,
            values: (_u, ticks) => ticks.map((v) => formatPrice(v).replace(/\.00$/, '')),
          },
        ],
        series: [
          { value: (_u, ts) => (ts == null ? '' : dayLabel(new Date(ts * 1000).toISOString().slice(0, 10))) },
          {
            label: 'Revenue',
            stroke: '#b3261e',
            fill: 'rgba(179, 38, 30, 0.35)',
            paths: uPlot.paths.bars?.({ size: [0.7, 24] }),
            points: { show: false },
            value: (_u, v) => (v == null ? '' : formatPrice(v)),
          },
        ],
      },
      [days.map((d) => secondsOf(d.date)), days.map((d) => d.revenue)],
      el,
    );
    const resize = new ResizeObserver(() => plot.setSize({ width: width(), height: HEIGHT }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [days]);

  return <div ref={box} className="dash-chart" data-testid="revenue-chart" aria-hidden="true" />;
}
