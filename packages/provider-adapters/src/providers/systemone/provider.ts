import { z } from "zod";
import { defineProvider } from "../provider-definition.js";
import { bearerCredentialHeaders } from "../bearer-credential-headers.js";
import { createSystemOneDecisionModel } from "./systemone-adapter.js";

/** An upstream that speaks the decision contract (`POST {baseUrl}/v1/systemone`); decisions only, base URL required. */
export const provider = defineProvider({
  kind: "systemone",
  label: "System One",
  network: true,
  defaultBaseUrl: null,
  baseUrlPathIsApiRoot: false,
  credentialHeaders: bearerCredentialHeaders,
  settingsSchema: z.object({}),
  decisions: (connection, _settings, dependencies) => createSystemOneDecisionModel(connection, dependencies),
});
