// SwiftUI's named colours as CSS, and how a view is painted with them: a `Color` (or a shape) fills its box with its
// colour, faded by the `.opacity` modifiers applied before any overlay or background; an `.opacity` after one fades
// the whole view (element opacity). The values are Apple's documented system colours in the light appearance.
// No DOM.

/** Named colours: `[r, g, b, alpha]`. */
const NAMED = {
    red: [255, 59, 48, 1],
    orange: [255, 149, 0, 1],
    yellow: [255, 204, 0, 1],
    green: [52, 199, 89, 1],
    mint: [0, 199, 190, 1],
    teal: [48, 176, 199, 1],
    cyan: [50, 173, 230, 1],
    blue: [0, 122, 255, 1],
    indigo: [88, 86, 214, 1],
    purple: [175, 82, 222, 1],
    pink: [255, 45, 85, 1],
    brown: [162, 132, 94, 1],
    gray: [142, 142, 147, 1],
    black: [0, 0, 0, 1],
    white: [255, 255, 255, 1],
    primary: [0, 0, 0, 1],
    secondary: [60, 60, 67, 0.6],
    accentColor: [0, 122, 255, 1],
    clear: [0, 0, 0, 0],
};

/** The types painted with a fill colour. */
export const FILLED = new Set(['Color', 'Rectangle', 'Circle', 'Capsule', 'RoundedRectangle', 'Ellipse']);

/** The modifiers that give a shape its colour. */
const FILLS = new Set(['fill', 'foregroundColor', 'foregroundStyle', 'tint']);

/** `[r, g, b, alpha]` of a named colour (`"indigo"`, `".indigo"`), or null. */
export function colorOf(name) {
    if (typeof name !== 'string') return null;
    return NAMED[name.startsWith('.') ? name.slice(1) : name] ?? null;
}

function css([r, g, b, a]) {
    return `rgba(${r}, ${g}, ${b}, ${Math.round(a * 1000) / 1000})`;
}

/**
 * How node `node` is painted: `fill` (a CSS colour, '' when it has none the page knows) and `opacity` (the element's,
 * 1 when nothing fades it as a whole).
 */
export function paintOf(node) {
    const filled = FILLED.has(node.type);
    let rgba = null;
    if (node.type === 'Color') rgba = colorOf(node.props?._0 ?? node.props?.name);
    let fade = 1;
    let opacity = 1;
    let attached = false;
    for (const m of node.modifiers || []) {
        if (m.node) attached = true;
        else if (m.kind === 'opacity' && typeof m.args?._0 === 'number') {
            if (filled && !attached) fade *= m.args._0;
            else opacity *= m.args._0;
        } else if (filled && node.type !== 'Color' && FILLS.has(m.kind)) rgba = colorOf(m.args?._0) ?? rgba;
    }
    if (filled && !rgba && node.type !== 'Color') rgba = NAMED.primary; // a shape is drawn in the foreground colour
    return { fill: rgba ? css([rgba[0], rgba[1], rgba[2], rgba[3] * fade]) : '', opacity };
}
