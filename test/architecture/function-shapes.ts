import type { Node } from 'typescript/unstable/ast';
import type { NodePredicates, ParsedSource } from './source-files.js';

/** A function of the source (declaration, method, accessor, constructor, arrow or function expression). */
export interface FunctionShape {
  readonly path: string;
  /** The name a reader finds it by: `Class.method`, `function`, or `outer (callback)` for an unnamed one. */
  readonly name: string;
  /** Lines from its first token (a doc comment above it not counted) to its last. */
  readonly lines: number;
  readonly parameters: number;
  readonly isConstructor: boolean;
}

type FunctionNode = Node & { readonly parameters: readonly Node[] };

/** Every function of a parsed file, nested ones included (each counted whole, with what it nests). */
export function functionsOf(relativePath: string, source: ParsedSource, is: NodePredicates): FunctionShape[] {
  const shapes: FunctionShape[] = [];
  const line = (position: number) => source.getLineAndCharacterOfPosition(position).line;
  const visit = (node: Node): void => {
    if (isFunction(is, node)) {
      shapes.push({
        path: relativePath,
        name: nameOf(is, node),
        lines: line(node.end) - line(node.getStart(source)) + 1,
        parameters: node.parameters.length,
        isConstructor: is.isConstructorDeclaration(node),
      });
    }
    node.forEachChild(visit);
  };
  source.forEachChild(visit);
  return shapes;
}

function isFunction(is: NodePredicates, node: Node): node is FunctionNode {
  return (
    is.isFunctionDeclaration(node) ||
    is.isMethodDeclaration(node) ||
    is.isGetAccessorDeclaration(node) ||
    is.isSetAccessorDeclaration(node) ||
    is.isConstructorDeclaration(node) ||
    is.isArrowFunction(node) ||
    is.isFunctionExpression(node)
  );
}

function nameOf(is: NodePredicates, node: Node): string {
  if (is.isConstructorDeclaration(node)) return `${classNameOf(is, node.parent)}.constructor`;
  if (is.isMethodDeclaration(node) || is.isGetAccessorDeclaration(node) || is.isSetAccessorDeclaration(node)) {
    const member = textOf(node.name);
    return is.isClassLikeDeclaration(node.parent) ? `${classNameOf(is, node.parent)}.${member}` : member;
  }
  if (is.isFunctionDeclaration(node) && node.name !== undefined) return node.name.text;
  const holder = node.parent;
  if (is.isVariableDeclaration(holder) || is.isPropertyAssignment(holder)) return textOf(holder.name);
  if (is.isPropertyDeclaration(holder)) return `${classNameOf(is, holder.parent)}.${textOf(holder.name)}`;
  return `${enclosingName(is, node)} (callback)`;
}

/** The name of the nearest function around `node`, or `(module)` at the top level. */
function enclosingName(is: NodePredicates, node: Node): string {
  for (let outer = node.parent; outer !== undefined; outer = outer.parent) {
    if (isFunction(is, outer)) return nameOf(is, outer);
  }
  return '(module)';
}

function classNameOf(is: NodePredicates, node: Node): string {
  if (is.isClassLikeDeclaration(node) && node.name !== undefined) return node.name.text;
  if (is.isVariableDeclaration(node.parent)) return textOf(node.parent.name);
  return '(class)';
}

function textOf(name: Node): string {
  return name.getText().replace(/\s+/g, ' ');
}
