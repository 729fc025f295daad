// Compiling documentation snippets against the package's sources (no build needed), as a program would use
// the package: `pulumi-devicemgmt` and `@pulumi/pulumi` resolve to this repository's sources and SDK.
import * as path from "path";
import * as ts from "typescript";

export const repoRoot = path.resolve(__dirname, "../..");

/** One program over `files` (each a module of its own), with the strictness `pulumi new typescript` sets. */
export function snippetProgram(files: readonly string[]): ts.Program {
  return ts.createProgram([...files], {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.Node16,
    moduleResolution: ts.ModuleResolutionKind.Node16,
    esModuleInterop: true,
    types: ["node"],
    typeRoots: [path.join(repoRoot, "node_modules/@types")],
    baseUrl: repoRoot,
    paths: {
      "pulumi-devicemgmt": ["provider/index.ts"],
      "@pulumi/pulumi": ["node_modules/@pulumi/pulumi"],
    },
  });
}

/** The compile errors of `file` in `program`, as "<where>:<line>: message" with its line offset by `firstLine`. */
export function errorsOf(program: ts.Program, file: string, where: string, firstLine: number): string[] {
  return ts.getPreEmitDiagnostics(program, program.getSourceFile(file)).map((d) => {
    const at = d.start === undefined ? 0 : d.file!.getLineAndCharacterOfPosition(d.start).line;
    return `${where}:${firstLine + at}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`;
  });
}
