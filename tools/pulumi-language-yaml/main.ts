/** `npm run pulumi-language-yaml`: finds or builds the pinned Pulumi YAML language host (see index.ts). */
import { ensureYamlHost } from "./index";

try {
  const host = ensureYamlHost();
  console.log(`pulumi-language-yaml: ${host.binary} (${host.version}, ${host.source})`);
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
