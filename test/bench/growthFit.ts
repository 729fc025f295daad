/**
 * How a cost grows with the stack's size n, from a few measured points (./growth.ts): pure least-squares fits,
 * unit-tested in growthFit.test.ts.
 */

export interface Point {
  n: number;
  y: number;
}

/** y ≈ c · n^k: least squares of ln y against ln n. Needs two points of different n, all n and y positive. */
export function fitPowerLaw(points: Point[]): { k: number; c: number } {
  const usable = points.filter((p) => p.n > 0 && p.y > 0);
  if (new Set(usable.map((p) => p.n)).size < 2) return { k: Number.NaN, c: Number.NaN };
  const xs = usable.map((p) => Math.log(p.n));
  const ys = usable.map((p) => Math.log(p.y));
  const mean = (vs: number[]) => vs.reduce((a, b) => a + b, 0) / vs.length;
  const mx = mean(xs);
  const my = mean(ys);
  let sxy = 0;
  let sxx = 0;
  for (let i = 0; i < xs.length; i++) {
    sxy += (xs[i] - mx) * (ys[i] - my);
    sxx += (xs[i] - mx) ** 2;
  }
  const k = sxy / sxx;
  return { k, c: Math.exp(my - k * mx) };
}

/**
 * y ≈ a · n + b · n²: least squares without a constant term (no resources, no per-step cost). `a` is the
 * cost per resource that does not depend on the stack's size, `b` the part that grows with it (a checkpoint of
 * all n resources written per step). Computed with n in thousands so the normal equations stay well scaled.
 */
export function fitLinearQuadratic(points: Point[]): { a: number; b: number } {
  if (new Set(points.map((p) => p.n)).size < 2) return { a: Number.NaN, b: Number.NaN };
  let s2 = 0; // Σ m²
  let s3 = 0; // Σ m³
  let s4 = 0; // Σ m⁴
  let t1 = 0; // Σ m·y
  let t2 = 0; // Σ m²·y
  for (const { n, y } of points) {
    const m = n / 1000;
    s2 += m ** 2;
    s3 += m ** 3;
    s4 += m ** 4;
    t1 += m * y;
    t2 += m ** 2 * y;
  }
  const det = s2 * s4 - s3 * s3;
  const a = (t1 * s4 - t2 * s3) / det;
  const b = (s2 * t2 - s3 * t1) / det;
  return { a: a / 1000, b: b / 1e6 };
}
