// A program tree as the daemon sends it once laid out (LAYOUT.md §2): an iPhone 15 canvas, a header Text with a
// padding and an overlay badge, and a ScrollView scrolled down by 120 points whose first row is scrolled out of view.
// Hand-written to the contract, small enough to reason about; Tests/web/fixtures/ has trees canopyd laid out. As the
// daemon does, a node's frame is its box with all its modifiers (the header's, its padding's).

export const CANVAS = { width: 393, height: 852, safeArea: { top: 59, bottom: 34, leading: 0, trailing: 0 }, scale: 3 };

export function laidOutSnapshot() {
    const text = (id, frame) => ({ id, type: 'Text', props: { text: id }, frame });
    return {
        type: 'snapshot', tree: 'feed', version: 2, keys: [], readers: [],
        program: { source: 'struct Feed: View { … }', view: 'Feed' }, state: [],
        canvas: structuredClone(CANVAS), textModel: 'canopy-text-1',
        root: {
            id: 'Feed', type: 'Feed', frame: [0, 59, 393, 759], children: [{
                id: 'stack', type: 'VStack', frame: [0, 59, 393, 759], children: [
                    {
                        ...text('header', [0, 59, 393, 52.333]),
                        modifiers: [{ kind: 'padding', args: {} }, { kind: 'overlay', node: { id: 'badge', type: 'Color', frame: [350, 75, 27, 20.333] } }],
                        modifierFrames: [{ modifier: 0, frame: [0, 59, 393, 52.333] }],
                    },
                    {
                        id: 'list', type: 'ScrollView', frame: [0, 119.333, 393, 698.667], children: [{
                            id: 'rows', type: 'LazyVStack', frame: [0, -0.667, 393, 2000], children: [
                                text('row1', [0, -0.667, 393, 44]),
                                text('row5', [0, 200, 393, 44]),
                            ],
                        }],
                    },
                ],
            }],
        },
    };
}
