import { fitLinearQuadratic, fitPowerLaw } from "./growthFit";

const at = (f: (n: number) => number, ns = [260, 1300, 3300]) => ns.map((n) => ({ n, y: f(n) }));

describe("fitPowerLaw", () => {
  it("recovers the exponent and factor of an exact power law", () => {
    const { k, c } = fitPowerLaw(at((n) => 3e-5 * n ** 2));
    expect(k).toBeCloseTo(2, 10);
    expect(c).toBeCloseTo(3e-5, 12);
  });

  it("gives 1 for a cost linear in n", () => {
    expect(fitPowerLaw(at((n) => 0.004 * n)).k).toBeCloseTo(1, 10);
  });

  it("leaves out points it cannot take the logarithm of, and gives NaN without two sizes", () => {
    expect(fitPowerLaw([{ n: 100, y: 0 }, ...at((n) => n ** 1.5)]).k).toBeCloseTo(1.5, 10);
    expect(fitPowerLaw([{ n: 100, y: 1 }]).k).toBeNaN();
    expect(
      fitPowerLaw([
        { n: 100, y: 1 },
        { n: 100, y: 2 },
      ]).k,
    ).toBeNaN();
  });
});

describe("fitLinearQuadratic", () => {
  it("recovers both coefficients of a·n + b·n² exactly", () => {
    const { a, b } = fitLinearQuadratic(at((n) => 0.005 * n + 4e-5 * n * n));
    expect(a).toBeCloseTo(0.005, 10);
    expect(b).toBeCloseTo(4e-5, 12);
  });

  it("gives the least-squares compromise when no a, b fit all points", () => {
    // y = n except one outlier: the fit must lie between, not through any single pair.
    const points = [
      { n: 1000, y: 1000 },
      { n: 2000, y: 2000 },
      { n: 3000, y: 3600 },
    ];
    const { a, b } = fitLinearQuadratic(points);
    const residual = (p: { n: number; y: number }) => p.y - (a * p.n + b * p.n ** 2);
    // At the least-squares optimum the residuals are orthogonal to both regressors.
    expect(points.reduce((s, p) => s + residual(p) * p.n, 0)).toBeCloseTo(0, 3);
    expect(points.reduce((s, p) => s + residual(p) * p.n ** 2, 0)).toBeCloseTo(0, 0);
    expect(b).toBeGreaterThan(0);
  });

  it("gives NaN with fewer than two sizes", () => {
    expect(fitLinearQuadratic([{ n: 5, y: 1 }]).a).toBeNaN();
  });
});
