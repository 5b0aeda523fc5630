/** An in-memory Powertools persistence layer for unit tests (the integration test uses DynamoDB Local). */
import {
  IdempotencyItemAlreadyExistsError,
  IdempotencyItemNotFoundError,
} from "@aws-lambda-powertools/idempotency";
import { BasePersistenceLayer, type IdempotencyRecord } from "@aws-lambda-powertools/idempotency/persistence";

export class MemoryIdempotencyStore extends BasePersistenceLayer {
  readonly records = new Map<string, IdempotencyRecord>();

  protected async _getRecord(idempotencyKey: string): Promise<IdempotencyRecord> {
    const record = this.records.get(idempotencyKey);
    if (record === undefined) throw new IdempotencyItemNotFoundError(`no record ${idempotencyKey}`);
    return record;
  }

  protected async _putRecord(record: IdempotencyRecord): Promise<void> {
    const existing = this.records.get(record.idempotencyKey);
    if (existing !== undefined && !existing.isExpired())
      throw new IdempotencyItemAlreadyExistsError(`record ${record.idempotencyKey} exists`, existing);
    this.records.set(record.idempotencyKey, record);
  }

  protected async _updateRecord(record: IdempotencyRecord): Promise<void> {
    this.records.set(record.idempotencyKey, record);
  }

  protected async _deleteRecord(record: IdempotencyRecord): Promise<void> {
    this.records.delete(record.idempotencyKey);
  }
}
