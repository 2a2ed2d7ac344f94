import { AxisBottom, AxisLeft } from "@visx/axis";
import { Group } from "@visx/group";
import { scaleBand, scaleLinear } from "@visx/scale";
import { Bar } from "@visx/shape";

export type HoursBar = { key: string; name: string; hours: number };

const width = 720;
const margin = { top: 8, right: 24, bottom: 36, left: 200 };
const rowHeight = 32;
const longest = 28;

/** shortName keeps an axis label within the chart's left margin; the table beside the
 * chart has the whole name. */
function shortName(name: string): string {
  return name.length > longest ? name.slice(0, longest - 1) + "…" : name;
}

/** HoursChart draws hours as horizontal bars, largest first as the report orders them, an
 * SVG that React builds (nothing the page's policy refuses). It is a picture of the table
 * it stands beside, so assistive technology reads the table instead. */
export function HoursChart({ bars, label }: { bars: HoursBar[]; label: string }) {
  const innerWidth = width - margin.left - margin.right;
  const innerHeight = bars.length * rowHeight;
  const height = innerHeight + margin.top + margin.bottom;
  const y = scaleBand({ domain: bars.map((b) => b.key), range: [0, innerHeight], padding: 0.25 });
  const x = scaleLinear({ domain: [0, Math.max(1, ...bars.map((b) => b.hours))], range: [0, innerWidth], nice: true });
  const names = new Map(bars.map((b) => [b.key, b.name]));
  return (
    <svg className="hours-chart" viewBox={`0 0 ${width} ${height}`} role="img" aria-label={label}>
      <Group left={margin.left} top={margin.top}>
        {bars.map((b) => (
          <Bar key={b.key} className="hours-bar" x={0} y={y(b.key)} width={x(b.hours)} height={y.bandwidth()} rx={3} />
        ))}
        <AxisLeft
          scale={y}
          hideTicks
          tickFormat={(key) => shortName(names.get(key) ?? "")}
          tickLabelProps={{ className: "chart-label", textAnchor: "end", verticalAnchor: "middle", dx: -6 }}
          axisClassName="chart-axis"
        />
        <AxisBottom
          top={innerHeight}
          scale={x}
          numTicks={6}
          tickLabelProps={{ className: "chart-label", textAnchor: "middle" }}
          axisClassName="chart-axis"
        />
      </Group>
    </svg>
  );
}
