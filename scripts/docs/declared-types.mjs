/**
 * A typedoc plugin (typedoc.json `plugin`): signatures and properties show the types their author wrote
 * (`Promise<Tool[]>`, `entry: SkillEntry`) rather than the types the checker computed. typedoc converts
 * the computed types, and an alias of a valibot `InferOutput` (`Tool`, `Resource`, `SkillEntry`) does
 * not survive that: the page would spell out every field of every tool inline. Only a written name
 * (`Tool`), array (`Tool[]`), `readonly` array, or a union of those with `undefined` or `null`
 * (`Implementation | undefined`) is taken; any other type is left as typedoc made it.
 */
import { Converter, ReflectionKind } from 'typedoc';
import ts from 'typescript';

/** @param {ts.TypeNode | undefined} node */
const named = (node) =>
  node !== undefined &&
  (ts.isTypeReferenceNode(node) ||
    ts.isArrayTypeNode(node) ||
    ts.isTypeOperatorNode(node) ||
    // `Implementation | undefined`: a name that may be missing, as getters write it.
    (ts.isUnionTypeNode(node) && node.types.every((member) => named(member) || absent(member))));

/** `undefined` or `null` in a union. @param {ts.TypeNode} node */
const absent = (node) =>
  node.kind === ts.SyntaxKind.UndefinedKeyword ||
  (ts.isLiteralTypeNode(node) && node.literal.kind === ts.SyntaxKind.NullKeyword);

/** @param {import('typedoc').Application} app */
export function load(app) {
  app.converter.on(Converter.EVENT_CREATE_SIGNATURE, (context, signature, declaration) => {
    if (!declaration || !ts.isFunctionLike(declaration)) return;
    const inSignature = context.withScope(signature);
    if (named(declaration.type)) signature.type = context.converter.convertType(inSignature, declaration.type);
    const parameters = signature.parameters ?? [];
    if (parameters.length !== declaration.parameters.length) return;
    declaration.parameters.forEach((node, index) => {
      const parameter = parameters[index];
      if (parameter && named(node.type)) {
        parameter.type = context.converter.convertType(inSignature.withScope(parameter), node.type);
      }
    });
  });
  app.converter.on(Converter.EVENT_CREATE_DECLARATION, (context, reflection) => {
    if (!reflection.kindOf(ReflectionKind.Property)) return;
    const declaration = context.getSymbolFromReflection(reflection)?.declarations?.[0];
    if (!declaration || !(ts.isPropertySignature(declaration) || ts.isPropertyDeclaration(declaration))) return;
    if (named(declaration.type)) {
      reflection.type = context.converter.convertType(context.withScope(reflection), declaration.type);
    }
  });
}
