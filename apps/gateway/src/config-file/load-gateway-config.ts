import { readFile } from "node:fs/promises";
import { formatParamPath } from "@gateway/errors";
import { parse as parseYaml } from "yaml";
import { type GatewayConfig, gatewayConfigSchema } from "./gateway-config-schema.js";

/** A configuration file that cannot be applied; the message names the file and the field path. */
export class GatewayConfigError extends Error {
  /** The first failing field, as `organizations[0].connections[1].kind`. */
  readonly fieldPath: string | null;

  constructor(message: string, fieldPath: string | null) {
    super(message);
    this.name = "GatewayConfigError";
    this.fieldPath = fieldPath;
  }
}

/** Parses configuration text (JSON when it starts with `{`, else YAML) and validates it. */
export function parseGatewayConfig(text: string, source = "configuration"): GatewayConfig {
  let raw: unknown;
  try {
    raw = text.trimStart().startsWith("{") ? JSON.parse(text) : parseYaml(text);
  } catch (error) {
    throw new GatewayConfigError(`${source}: not valid YAML or JSON (${(error as Error).message})`, null);
  }
  const parsed = gatewayConfigSchema.safeParse(raw ?? {});
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => {
      const path = formatParamPath(issue.path);
      return { path: path === null ? "(root)" : String(path), message: issue.message };
    });
    const listed = issues.map((issue) => `  ${issue.path}: ${issue.message}`).join("\n");
    throw new GatewayConfigError(`${source}: invalid configuration\n${listed}`, issues[0]?.path ?? null);
  }
  return parsed.data;
}

/** Reads and validates the configuration file at `filePath`. */
export async function loadGatewayConfig(filePath: string): Promise<GatewayConfig> {
  let text: string;
  try {
    text = await readFile(filePath, "utf8");
  } catch (error) {
    throw new GatewayConfigError(`${filePath}: cannot read the configuration file (${(error as NodeJS.ErrnoException).code ?? "error"})`, null);
  }
  return parseGatewayConfig(text, filePath);
}
