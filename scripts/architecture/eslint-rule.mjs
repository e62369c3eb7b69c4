// ESLint rule `hookline/layers`: reports an import that layers.mjs forbids, where it is written.
import { forbiddenImport } from './layers.mjs';

export const layersRule = {
  meta: {
    type: 'problem',
    docs: { description: 'Keeps each layer of lib/, app/, components/ and worker/ to the imports it may make' },
    schema: [],
  },
  create(context) {
    const check = (node) => {
      const source = node.source;
      if (!source || source.type !== 'Literal' || typeof source.value !== 'string') return;
      const problem = forbiddenImport(context.filename, source.value);
      if (problem) context.report({ node: source, message: `${problem} (scripts/architecture/layers.mjs)` });
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
    };
  },
};
