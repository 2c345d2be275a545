/**
 * The event stream the UI receives: one typed emitter, in order. Shells forward every
 * envelope to their renderers; main-process listeners use the typed events of the
 * services instead of filtering channel strings here.
 */
import type { EventChannel, EventEnvelope, EventPayloads } from '../../shared/contract';
import { Emitter, type Disposable, type Event } from '../lifecycle';

export class UiEvents implements Disposable {
  private readonly emitter = new Emitter<EventEnvelope>();
  readonly onDidEmit: Event<EventEnvelope> = this.emitter.event;

  emit<C extends EventChannel>(channel: C, payload: EventPayloads[C]): void {
    this.emitter.fire({ channel, payload } as EventEnvelope);
  }

  dispose(): void {
    this.emitter.dispose();
  }
}
