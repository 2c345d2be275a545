/**
 * The part of the `x11` package (node-x11, pure JavaScript, no types of its own) that Flint
 * uses: one client connection, a few core requests, core events. Callbacks of requests
 * return whether they handled an error (`true`); otherwise the client also emits it as 'error'.
 */
declare module 'x11' {
  /** Core requests' replies; `err` is an X error (`err.error` is its code: 3 BadWindow…) or a stream error. */
  export type XCallback<T> = (error: XError | null | undefined, value: T) => boolean | void;

  export interface XError extends Error {
    /** The X error code (2 BadValue, 3 BadWindow, 5 BadAtom…); absent on a stream error. */
    error?: number;
    code?: string;
  }

  export interface XProperty {
    type: number;
    /** 8, 16 or 32 bits per element. */
    format: number;
    /** Bytes left after what this read returned. */
    bytesAfter: number;
    data: Buffer;
  }

  /** A parsed core event: `name` says which; the other fields are the event's own. */
  export interface XEvent {
    type: number;
    name: string;
    /** The window the event is about (PropertyNotify, DestroyNotify…). */
    wid?: number;
    /** PropertyNotify: the property; state 0 NewValue, 1 Deleted. */
    atom?: number;
    state?: number;
    /** SelectionNotify. */
    requestor?: number;
    selection?: number;
    target?: number;
    property?: number;
  }

  export interface XClient {
    on(event: 'event', listener: (event: XEvent) => void): this;
    on(event: 'error', listener: (error: XError) => void): this;
    on(event: 'end', listener: () => void): this;
    removeAllListeners(): this;
    stream: { on(event: 'close', listener: () => void): void; destroy(): void };
    AllocID(): number;
    ReleaseID(id: number): void;
    InternAtom(onlyIfExists: boolean, name: string, callback: XCallback<number>): void;
    GetProperty(remove: 0 | 1, window: number, property: number, type: number, longOffset: number, longLength: number, callback: XCallback<XProperty>): void;
    ChangeProperty(mode: 0 | 1 | 2, window: number, property: number, type: number, format: 8 | 16 | 32, data: Buffer | number[] | string): void;
    DeleteProperty(window: number, property: number): void;
    ChangeWindowAttributes(window: number, values: { eventMask?: number }, callback?: XCallback<void>): void;
    CreateWindow(id: number, parent: number, x: number, y: number, width: number, height: number, borderWidth: number, depth: number, windowClass: number, visual: number, values: { eventMask?: number; overrideRedirect?: number }): void;
    MapWindow(window: number): void;
    DestroyWindow(window: number, callback?: XCallback<void>): void;
    ConvertSelection(requestor: number, selection: number, target: number, property: number, time: number): void;
    SetSelectionOwner(owner: number, selection: number, time: number): void;
    SendEvent(destination: number, propagate: 0 | 1, eventMask: number, event: Record<string, unknown>): void;
    SendClientMessage(destination: number, window: number, messageType: number, format: 8 | 16 | 32, data: number[]): void;
    sync(callback: (error: XError | null) => void): void;
    close(callback?: (error?: XError) => void): void;
  }

  export interface XDisplay {
    client: XClient;
    screen: Array<{ root: number }>;
  }

  export interface CreateClientOptions {
    display?: string;
    /** Unix-socket fd passing (MIT-SHM) off: Flint draws nothing. */
    shm?: false;
    /** Skips BIG-REQUESTS (one round trip less; Flint sends no large request). */
    disableBigRequests?: boolean;
  }

  const x11: {
    createClient(options: CreateClientOptions, callback: (error: XError | undefined, display: XDisplay) => void): XClient;
    eventMask: { PropertyChange: number; StructureNotify: number };
  };
  export default x11;
}
