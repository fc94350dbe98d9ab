// One WebSocket to the daemon that served the page, with hello, request/reply matching by `rid`, and automatic
// reconnection with back-off. Messages that are not replies go to `onMessage`.

const SUBPROTOCOL = 'canopy.v1';

export class Connection {
    /**
     * `url` is ws(s)://host:port/ws. Callbacks: onStatus(state, detail), onMessage(msg), onOpen() after a
     * successful hello (subscribe again there), onUnauthorized(message).
     */
    constructor(url, { client, token, onStatus, onMessage, onOpen, onUnauthorized }) {
        this.url = url;
        this.client = client;
        this.token = token;
        this.onStatus = onStatus;
        this.onMessage = onMessage;
        this.onOpen = onOpen;
        this.onUnauthorized = onUnauthorized;
        this.nextRid = 1;
        this.waiting = new Map();
        this.attempt = 0;
        this.session = null;
        this.timer = null;
    }

    start() {
        this.#open();
    }

    /** Reconnects now with a new token (after the user typed one). */
    restart(token) {
        this.token = token;
        clearTimeout(this.timer);
        this.attempt = 0;
        if (this.ws && this.ws.readyState <= WebSocket.OPEN) {
            this.ws.onclose = null;
            this.ws.close(1000);
        }
        this.#open();
    }

    get isOpen() {
        return !!this.ws && this.ws.readyState === WebSocket.OPEN && this.session !== null;
    }

    #open() {
        this.session = null;
        this.onStatus(this.attempt ? 'reconnecting' : 'connecting', this.attempt ? `attempt ${this.attempt + 1}` : '');
        let ws;
        try {
            ws = new WebSocket(this.url, SUBPROTOCOL);
        } catch (error) {
            this.onStatus('offline', String(error));
            return;
        }
        this.ws = ws;
        ws.onopen = () => {
            const hello = { type: 'hello', client: this.client };
            if (this.token) hello.token = this.token;
            this.request(hello, { beforeWelcome: true }).then(
                (welcome) => {
                    this.attempt = 0;
                    this.session = welcome.session;
                    this.onStatus('connected', `${welcome.server} · ${welcome.session} · ${welcome.role}`);
                    this.onOpen();
                },
                () => {},
            );
        };
        ws.onmessage = (event) => this.#receive(event.data);
        ws.onclose = (event) => this.#closed(event);
    }

    #receive(text) {
        let msg;
        try {
            msg = JSON.parse(text);
        } catch {
            console.warn('canopy: a frame that is not JSON', text.slice(0, 200));
            return;
        }
        if (msg.type === 'error' && msg.code === 'unauthorized') {
            this.unauthorized = true;
            this.onUnauthorized(msg.message || 'a token is required');
        }
        if (msg.rid !== undefined && this.waiting.has(msg.rid)) {
            const { resolve, reject } = this.waiting.get(msg.rid);
            this.waiting.delete(msg.rid);
            if (msg.type === 'error') reject(Object.assign(new Error(msg.message || msg.code), { reply: msg }));
            else resolve(msg);
            // Acknowledgements and snapshots are also state changes everyone else sees: let the app see them too.
            if (msg.type === 'diff' || msg.type === 'snapshot' || msg.type === 'rejected') this.onMessage(msg);
            return;
        }
        this.onMessage(msg);
    }

    #closed(event) {
        this.session = null;
        for (const { reject } of this.waiting.values()) reject(new Error('connection closed'));
        this.waiting.clear();
        if (this.unauthorized) {
            this.unauthorized = false;
            this.onStatus('unauthorized', 'enter a token to connect');
            return;
        }
        this.attempt += 1;
        const delay = Math.min(5000, 250 * 2 ** Math.min(this.attempt, 5));
        const why = event.code === 1008 ? 'too slow: resynchronising' : event.code === 1009 ? 'message too large' : '';
        this.onStatus('reconnecting', `closed (${event.code}${why ? ': ' + why : ''}); retry in ${delay / 1000} s`);
        this.timer = setTimeout(() => this.#open(), delay);
    }

    /** Sends `msg` without waiting for a reply. Returns false when not connected. */
    send(msg) {
        if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
        this.ws.send(JSON.stringify(msg));
        return true;
    }

    /** Sends `msg` with a fresh `rid` and resolves with the reply (rejects on `error`, or when the socket closes). */
    request(msg, { beforeWelcome = false } = {}) {
        if (!beforeWelcome && !this.isOpen) return Promise.reject(new Error('not connected'));
        const rid = this.nextRid++;
        return new Promise((resolve, reject) => {
            this.waiting.set(rid, { resolve, reject });
            if (!this.send({ ...msg, rid })) {
                this.waiting.delete(rid);
                reject(new Error('not connected'));
            }
        });
    }
}
