/** The exporter writes no shares: it could not read them. */
import type { KindSection } from "../../export/layout";

export const releaseChannelShareSection: KindSection = {
  notExported:
    "the API has no read of the organizations a channel is shared with (only share and unshare), so shares cannot be read",
};
