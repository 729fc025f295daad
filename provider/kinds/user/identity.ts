/**
 * Who the User kind is: its key, type token, properties, natural key and claim, declared once for the
 * definition, the handler and the kind's other files.
 */
import { defineIdentity, knownText } from "../../framework";
import { userProperties } from "./properties";

export const userIdentity = defineIdentity({
  kind: "user",
  type: "User",
  naturalKey: true,
  properties: userProperties,
  // E-mail addresses compare without case, as the service matches them (invitation.ts's sameEmail).
  claim: {
    property: "email",
    keys: (p) =>
      knownText(p.email) === undefined ? undefined : [(knownText(p.email) as string).toLowerCase()],
    describe: (p) => `the user ${String(p.email)}`,
  },
});
