/** `npm run docs:plugin`: writes the provider plugin's reference pages (docs/reference/plugin/) from its schema. */
import { REFERENCE_DIR, writePages } from "./index";

console.log(`docs:plugin: ${writePages().length} pages in ${REFERENCE_DIR}`);
