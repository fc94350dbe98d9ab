// Where a node's own content is drawn inside its frame (the live view at its frames, in the Layout tab): inside the
// boxes of its layout modifiers — a padded Text's text 16 points in — and how many lines of its font a Text's box
// holds (the text model's line heights, docs/layout.md). Pure: no DOM.

/** The edges of an `Edge.Set` by name (a single edge is its own name). */
const EDGE_SETS = { all: ['top', 'leading', 'bottom', 'trailing'], horizontal: ['leading', 'trailing'], vertical: ['top', 'bottom'] };

/** The insets of a `padding` modifier's args (`{}`, `{_0: 10}`, `{_0: "horizontal", _1: 12}`, EdgeInsets). */
export function paddingInsets(args = {}) {
    const first = args._0;
    if (first && typeof first === 'object' && !Array.isArray(first)) {
        return { top: first.top ?? 0, leading: first.leading ?? 0, bottom: first.bottom ?? 0, trailing: first.trailing ?? 0 };
    }
    if (typeof first === 'number') return { top: first, leading: first, bottom: first, trailing: first };
    const length = typeof args._1 === 'number' ? args._1 : 16;
    const names = first === undefined ? ['all'] : Array.isArray(first) ? first : [first];
    const on = new Set(names.flatMap((n) => EDGE_SETS[n] ?? [n]));
    const edge = (e) => (on.has(e) ? length : 0);
    return { top: edge('top'), leading: edge('leading'), bottom: edge('bottom'), trailing: edge('trailing') };
}

/** Modifiers that size or place their content differently from it: past one, the content's box is not known. */
const RESIZING = new Set(['frame', 'fixedSize', 'position', 'aspectRatio']);

/**
 * Where a node's own content sits inside its frame, as insets from the frame `{ top, right, bottom, left }`: the box
 * of its innermost layout modifier, less that modifier's padding when it is a padding (`.padding()` around a Text:
 * the text starts 16 points in). When a diff left the modifiers' boxes unknown, the paddings from the outside in, up
 * to the first modifier that sizes its content (a `frame`, say: what is inside it is not known).
 */
export function contentInsets(node) {
    const none = { top: 0, right: 0, bottom: 0, left: 0 };
    if (!node?.frame) return none;
    if (!node.modifierFrames) {
        const sum = { ...none };
        for (let i = node.modifiers.length - 1; i >= 0 && !RESIZING.has(node.modifiers[i].kind); i--) {
            if (node.modifiers[i].kind !== 'padding') continue;
            const pad = paddingInsets(node.modifiers[i].args);
            sum.top += pad.top;
            sum.left += pad.leading;
            sum.bottom += pad.bottom;
            sum.right += pad.trailing;
        }
        return sum;
    }
    if (!node.modifierFrames.length) return none;
    const inner = node.modifierFrames.reduce((a, b) => (b.modifier < a.modifier ? b : a));
    const m = node.modifiers[inner.modifier];
    const pad = m?.kind === 'padding' ? paddingInsets(m.args) : { top: 0, leading: 0, bottom: 0, trailing: 0 };
    const [fx, fy, fw, fh] = node.frame;
    const [bx, by, bw, bh] = inner.frame;
    const inset = (v) => Math.max(0, v);
    return {
        top: inset(by + pad.top - fy), left: inset(bx + pad.leading - fx),
        bottom: inset(fy + fh - (by + bh - pad.bottom)), right: inset(fx + fw - (bx + bw - pad.trailing)),
    };
}

/** Point sizes of the text styles (docs/layout.md, "The text model"); body when none is set. */
const FONT_POINTS = {
    largeTitle: 34, title: 28, title2: 22, title3: 20, headline: 17, body: 17, callout: 16, subheadline: 15,
    footnote: 13, caption: 12, caption2: 11,
};

/** The text model's line height of a style: 1.19336 × its size, rounded up to the @3x grid. */
export function lineHeight(font) {
    const size = FONT_POINTS[font] ?? FONT_POINTS.body;
    return Math.ceil(1.19336 * size * 3 - 1e-9) / 3;
}

/** How many lines of `font` a text box `height` points high holds (at least 1). */
export function textLines(height, font) {
    return Math.max(1, Math.round(height / lineHeight(font)));
}
