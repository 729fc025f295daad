// The cycle check (`npm run cycles`, part of `npm run lint`) must cruise every folder the typecheck covers: a
// folder added to tsconfig.json but not to the script would be free to grow import circles unseen.
import * as fs from "fs";
import * as path from "path";

const root = path.resolve(__dirname, "../..");
const readJson = (file: string) => JSON.parse(fs.readFileSync(path.join(root, file), "utf8"));

it("npm run cycles cruises every folder tsconfig.json typechecks", () => {
  const typechecked = (readJson("tsconfig.json") as { include: string[] }).include;
  const script = (readJson("package.json") as { scripts: Record<string, string> }).scripts.cycles;
  const [command, ...args] = script.split(/\s+/);
  expect(command).toBe("depcruise");
  const cruised = args.filter((arg, i) => !arg.startsWith("-") && !args[i - 1]?.startsWith("--config"));
  expect(typechecked.length).toBeGreaterThan(0);
  expect([...cruised].sort()).toEqual([...typechecked].sort());
});

it("npm run lint runs the cycle check", () => {
  const lint = (readJson("package.json") as { scripts: Record<string, string> }).scripts.lint;
  expect(lint).toMatch(/\bnpm run cycles\b/);
});
