/**
 * A typedoc plugin (typedoc.json `plugin`): a property with no doc comment fails the docs build, as an
 * undocumented export does, unless it is part of a wire shape. The wire shapes (`protocol/`, the Skills
 * schemas: valibot schemas and their `InferOutput` types) carry some 2,700 fields the MCP specification
 * documents; typedoc's own `requiredToBeDocumented` cannot tell those from our options and results,
 * whose fields must say what they do.
 */
import { Application, ReflectionKind } from 'typedoc';

/** The packages held to it. */
const PACKAGES = ['@mcp/core', '@mcp/node-stdio', '@mcp/ai-sdk', '@mcp/react'];

/** Files whose types mirror the wire, relative to a package (`src/protocol/…`). */
const WIRE = [/^src\/protocol\//, /^src\/skills\/schemas\.ts$/];

/** A field of a parameter's inline type: the parameter's comment covers it, as typedoc's own check has it. */
function inParameter(reflection) {
  for (let parent = reflection.parent; parent; parent = parent.parent) {
    if (parent.kindOf(ReflectionKind.Parameter)) return true;
  }
  return false;
}

/** @param {Application} app */
export function load(app) {
  app.on(Application.EVENT_VALIDATE_PROJECT, (project) => {
    for (const property of project.getReflectionsByKind(ReflectionKind.Property)) {
      if (property.hasComment() || inParameter(property)) continue;
      const symbol = project.getSymbolIdFromReflection(property);
      if (!symbol || !PACKAGES.includes(symbol.packageName)) continue;
      if (WIRE.some((wire) => wire.test(symbol.packagePath))) continue;
      app.logger.validationWarning(
        `${property.getFriendlyFullName()} (Property), defined in ${symbol.packageName}/${symbol.packagePath}, does not have any documentation`,
      );
    }
  });
}
