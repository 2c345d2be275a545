import { expect } from 'vitest';
import { FlintFailure } from '../../src/shared/result';

/** Runs `action` and returns the FlintFailure it threw (fails the test if it did not). */
export async function failureOf(action: () => Promise<unknown>): Promise<FlintFailure> {
  try {
    await action();
  } catch (error) {
    expect(error).toBeInstanceOf(FlintFailure);
    return error as FlintFailure;
  }
  throw new Error('expected a FlintFailure, but the call succeeded');
}
