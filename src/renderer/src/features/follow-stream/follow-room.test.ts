import { describe, expect, it } from 'vitest';
import { ROOM_MAX_PX, ROOM_MIN_PX, nextRoom, roomStep } from './follow-room';

const VIEWPORT = 600;
const STEP = roomStep(VIEWPORT);

describe('the room below a followed view’s newest text', () => {
  it('is a quarter of the view, a few lines at the least and 240 px at the most', () => {
    expect(roomStep(600)).toBe(150);
    expect(roomStep(160)).toBe(ROOM_MIN_PX);
    expect(roomStep(2000)).toBe(ROOM_MAX_PX);
  });

  it('is never more than a third of the view, so two rooms (what folding cards leave) still show text', () => {
    expect(roomStep(90)).toBe(30);
    for (let viewport = 1; viewport <= 3000; viewport += 1) expect(2 * roomStep(viewport), `view ${viewport}`).toBeLessThan(viewport);
  });

  it('is not made while the text fits the view: the room never makes a view scroll', () => {
    expect(nextRoom(400, VIEWPORT, 0)).toEqual({ room: 0, reserved: 400 });
    expect(nextRoom(VIEWPORT, VIEWPORT, 400)).toEqual({ room: 0, reserved: VIEWPORT });
  });

  it('is made once the text overflows, and shrinks as the text grows into it: the scrollable height holds', () => {
    const made = nextRoom(650, VIEWPORT, 600);
    expect(made).toEqual({ room: STEP, reserved: 650 + STEP });
    expect(nextRoom(700, VIEWPORT, made.reserved)).toEqual({ room: STEP - 50, reserved: made.reserved });
    // Full, it keeps the height (reserved over the view: held), so text that shrinks next leaves room.
    expect(nextRoom(650 + STEP, VIEWPORT, made.reserved)).toEqual({ room: 0, reserved: made.reserved });
    expect(nextRoom(650 + STEP - 40, VIEWPORT, made.reserved)).toEqual({ room: 40, reserved: made.reserved });
  });

  it('is made again, whole, once the text fills it', () => {
    expect(nextRoom(1001, VIEWPORT, 1000)).toEqual({ room: STEP, reserved: 1001 + STEP });
  });

  it('grows as the text shrinks (a card folded), up to two rooms; beyond that it is one room again', () => {
    expect(nextRoom(900, VIEWPORT, 1000)).toEqual({ room: 100, reserved: 1000 });
    expect(nextRoom(1000 - 2 * STEP, VIEWPORT, 1000)).toEqual({ room: 2 * STEP, reserved: 1000 });
    const shrunk = 1000 - 2 * STEP - 1;
    expect(nextRoom(shrunk, VIEWPORT, 1000)).toEqual({ room: STEP, reserved: shrunk + STEP });
  });

  it('keeps, for any text that grows and shrinks, a room of zero to two rooms, and changes the scrollable height once per room filled', () => {
    // A seeded walk: mostly lines streaming in (1-40 px), now and then a card folding (up to 300 px).
    let seed = 11;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    let content = 200;
    let reserved = 0;
    let grown = 0;
    let changes = 0;
    let folds = 0;
    let fitting = 0;
    for (let frame = 0; frame < 20_000; frame += 1) {
      const folded = random() < 0.02;
      const delta = folded ? -Math.floor(random() * 300) : Math.floor(random() * 40) + 1;
      content = Math.max(0, content + delta);
      if (folded) folds += 1;
      else grown += delta;
      const next = nextRoom(content, VIEWPORT, reserved);
      expect(next.reserved - content).toBe(next.room);
      expect(next.room).toBeGreaterThanOrEqual(0);
      expect(next.room).toBeLessThanOrEqual(2 * STEP);
      if (content <= VIEWPORT) {
        expect(next.room).toBe(0);
        fitting += 1;
      }
      if (next.reserved !== reserved) changes += 1;
      reserved = next.reserved;
    }
    // Line by line, it would change in every frame that brought text (about 19,600 of them):
    // here once per room's worth of text, at most once per fold, and while the text fits.
    expect(changes).toBeLessThanOrEqual(Math.ceil(grown / STEP) + folds + fitting);
    expect(changes).toBeLessThan(20_000 / 4);
  });
});
