import { describe, expect, it } from 'vitest';
import type { ConnectionState, LatencyFigures } from '../../shared/inference-types';
import type { InferenceService } from '../inference/inference-service';
import { Emitter } from '../lifecycle';
import { forwardInferenceEvents } from './inference-handlers';

const FIGURES: LatencyFigures = { keypressToWriteMs: 2, requestToFirstDeltaMs: 30, tokensPerSecond: 1000, totalMs: 530, outputTokens: 500, model: 'gpt-5.3-codex-spark' };

describe('the inference events sent to the UI', () => {
  it('sends a request’s figures after the answer’s last batch, which was scheduled as its stream ended, and keeps them at once', async () => {
    const measured = new Emitter<LatencyFigures>();
    const connection = new Emitter<ConnectionState>();
    const inference = { onDidMeasure: measured.event, onDidChangeConnection: connection.event } as unknown as InferenceService;
    const sent: string[] = [];
    const kept: LatencyFigures[] = [];
    forwardInferenceEvents(inference, (channel) => void sent.push(channel), (figures) => void kept.push(figures));
    // The stream's end: its conversation's batcher schedules the last batch, then the figures are measured.
    setImmediate(() => sent.push('ask:update'));
    measured.fire(FIGURES);
    expect(kept).toEqual([FIGURES]);
    expect(sent).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent).toEqual(['ask:update', 'inference:latency']);
  });
});
