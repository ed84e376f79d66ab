import { describe, expect, it } from 'vitest';
import {
  CreateTaskExtensionResultSchema,
  CreateTaskResultSchema,
  DetailedTaskSchema,
  ErrorCode,
  GetTaskResultSchema,
  resultResponseSchema,
} from '../../src/protocol/index.js';
import { broken, fixture, parses, rejectedAt } from './helpers.js';

const CreateTaskResponse = resultResponseSchema(CreateTaskResultSchema);

describe('tasks (2025-11-25 core)', () => {
  it('parses a created task with its immediate-response meta', () => {
    const { result } = parses(CreateTaskResponse, fixture('create-task-result-2025-11-25'));
    expect(result.task).toMatchObject({ taskId: '786512e2', status: 'working', ttl: 60000, pollInterval: 5000 });
    expect(result._meta?.['io.modelcontextprotocol/model-immediate-response']).toBe('Working on it.');
  });

  it('rejects an unknown status and a missing ttl', () => {
    const badStatus = broken('create-task-result-2025-11-25', (m) => {
      m.result.task.status = 'paused';
    });
    expect(rejectedAt(CreateTaskResponse, badStatus)).toEqual(['result.task.status']);
    const noTtl = broken('create-task-result-2025-11-25', (m) => {
      delete m.result.task.ttl;
    });
    expect(rejectedAt(CreateTaskResponse, noTtl)).toEqual(['result.task.ttl']);
  });

  it('reads tasks/get results as the flat task', () => {
    const task = { taskId: 't', status: 'completed', createdAt: 'a', lastUpdatedAt: 'b', ttl: null };
    expect(parses(GetTaskResultSchema, task)).toEqual(task);
  });
});

describe('tasks extension (2026-07-28)', () => {
  it('parses a task result with flat fields and an unlimited ttl', () => {
    const { result } = parses(
      resultResponseSchema(CreateTaskExtensionResultSchema),
      fixture('create-task-result-2026-07-28'),
    );
    expect([result.resultType, result.ttlMs, result.pollIntervalMs]).toEqual(['task', null, 1000]);
  });

  it('parses a detailed task waiting for input and one that failed', () => {
    const base = { taskId: 't', createdAt: 'a', lastUpdatedAt: 'b', ttlMs: 1000, resultType: 'complete' };
    const waiting = parses(DetailedTaskSchema, {
      ...base,
      status: 'input_required',
      inputRequests: { r: { method: 'roots/list' } },
    });
    expect(waiting.inputRequests).toEqual({ r: { method: 'roots/list' } });
    const error = { code: ErrorCode.InternalError, message: 'boom' };
    const failed = parses(DetailedTaskSchema, { ...base, status: 'failed', error });
    expect(failed.error?.code).toBe(ErrorCode.InternalError);
    expect(rejectedAt(DetailedTaskSchema, { ...base, status: 'failed', error: { code: 'x', message: 'm' } })).toEqual([
      'error.code',
    ]);
  });
});
