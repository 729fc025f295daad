/**
 * A small hand-written SVG of a benchmark run: per phase, wall time against the floor and the CPU time of the
 * CLI's operation process, requests against naive.
 */

export interface ChartRow {
  phase: string;
  wallMs: number;
  floorMs: number;
  requests: number;
  naive: number;
  /** CPU seconds of the phase's `pulumi` process. */
  cliCpu: number;
}

const esc = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

const seconds = (ms: number) =>
  ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${(ms / 1000).toFixed(2)} s`;

interface Panel {
  title: string;
  bars: Array<{
    label: string;
    color: string;
    value: (row: ChartRow) => number;
    text: (v: number) => string;
  }>;
}

export function chartSvg(title: string, rows: ChartRow[]): string {
  const panels: Panel[] = [
    {
      title: "Wall time against the floor and the CLI's CPU",
      bars: [
        { label: "wall", color: "#3366cc", value: (r) => r.wallMs, text: seconds },
        { label: "floor", color: "#99aabb", value: (r) => r.floorMs, text: seconds },
        { label: "CLI CPU", color: "#66aa66", value: (r) => r.cliCpu * 1000, text: seconds },
      ],
    },
    {
      title: "Requests against one per resource",
      bars: [
        { label: "requests", color: "#dd7722", value: (r) => r.requests, text: String },
        { label: "naive", color: "#99aabb", value: (r) => r.naive, text: String },
      ],
    },
  ];
  const labelWidth = 90;
  const barWidth = 300;
  const barHeight = 14;
  const panelWidth = labelWidth + barWidth + 80;
  const rowHeight = barHeight * Math.max(...panels.map((panel) => panel.bars.length)) + 10;
  const top = 50;
  const height = top + rows.length * rowHeight + 40;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${panelWidth * 2 + 20}" height="${height}" ` +
      `font-family="sans-serif" font-size="11">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    `<text x="10" y="18" font-size="14" font-weight="bold">${esc(title)}</text>`,
  ];
  panels.forEach((panel, p) => {
    const x0 = 10 + p * (panelWidth + 10);
    const max = Math.max(1, ...rows.flatMap((row) => panel.bars.map((bar) => bar.value(row))));
    parts.push(`<text x="${x0}" y="${top - 12}" font-weight="bold">${esc(panel.title)}</text>`);
    rows.forEach((row, r) => {
      const y = top + r * rowHeight;
      parts.push(`<text x="${x0}" y="${y + barHeight + 3}">${esc(row.phase)}</text>`);
      panel.bars.forEach((bar, b) => {
        const value = bar.value(row);
        const width = Math.max(1, (value / max) * barWidth);
        const by = y + b * barHeight;
        parts.push(
          `<rect x="${x0 + labelWidth}" y="${by}" width="${width.toFixed(1)}" height="${barHeight - 2}" ` +
            `fill="${bar.color}"><title>${esc(`${row.phase} ${bar.label}: ${bar.text(value)}`)}</title></rect>`,
          `<text x="${(x0 + labelWidth + width + 4).toFixed(1)}" y="${by + barHeight - 4}">` +
            `${esc(`${bar.label} ${bar.text(value)}`)}</text>`,
        );
      });
    });
  });
  parts.push("</svg>");
  return parts.join("\n") + "\n";
}
