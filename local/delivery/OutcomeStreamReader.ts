import { DescribeTableCommand, type DynamoDBClient } from "@aws-sdk/client-dynamodb";
import {
  type _Record,
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  type GetRecordsCommandOutput,
  GetShardIteratorCommand,
  TrimmedDataAccessException,
} from "@aws-sdk/client-dynamodb-streams";
import { LOCAL_CREDENTIALS } from "../stack/createLocalClients.js";

/** Options of {@link OutcomeStreamReader.start}. */
export interface OutcomeStreamReaderOptions {
  /** A client on DynamoDB Local (the table's stream ARN is read with it). */
  dynamodb: DynamoDBClient;
  /** DynamoDB Local's endpoint: the streams client talks to it too. */
  endpoint: string;
  region: string;
  table: string;
  /** Told of every record, in stream order per shard. */
  onRecord: (record: _Record) => void;
  /** Told when a read failed (it is tried again on the next round). Default: nothing. */
  onError?: (error: unknown) => void;
  /** The pause between rounds that found nothing (milliseconds). Default 200. */
  idleMs?: number;
}

/**
 * Reads the outcomes table's DynamoDB stream on DynamoDB Local (the same records the deployed
 * Pipe publishes), from the records written after it started: the shards open at the start are
 * read from their latest position, shards that appear later from their beginning, each until it
 * closes. One round reads every open shard; rounds follow each other until {@link stop}.
 *
 * A shard whose position the stream has trimmed past (`TrimmedDataAccessException`: what DynamoDB
 * Local answers when the first record after the start lands past the position `LATEST` gave) is
 * read on from its oldest record: nothing before that record can be read any more, and nothing
 * from it on was read yet, so no record is read twice.
 */
export class OutcomeStreamReader {
  readonly #streams: DynamoDBStreamsClient;
  readonly #options: OutcomeStreamReaderOptions;
  readonly #streamArn: string;
  /** Shard id → its next iterator; `null` once the shard is closed and read to its end. */
  readonly #shards = new Map<string, string | null>();
  #stopped = false;
  #loop: Promise<void> = Promise.resolve();
  #wake: (() => void) | undefined;

  private constructor(options: OutcomeStreamReaderOptions, streamArn: string) {
    this.#options = options;
    this.#streamArn = streamArn;
    this.#streams = new DynamoDBStreamsClient({
      region: options.region,
      endpoint: options.endpoint,
      credentials: LOCAL_CREDENTIALS,
    });
  }

  /**
   * Finds the table's stream, positions every open shard at its latest record and starts reading.
   * @throws Error when the table has no stream (it was created without `StreamSpecification`).
   */
  static async start(options: OutcomeStreamReaderOptions): Promise<OutcomeStreamReader> {
    const table = await options.dynamodb.send(new DescribeTableCommand({ TableName: options.table }));
    const streamArn = table.Table?.LatestStreamArn;
    if (streamArn === undefined)
      throw new Error(`the table ${options.table} has no stream: create it with outcomesTableDefinition`);
    const reader = new OutcomeStreamReader(options, streamArn);
    await reader.#discover("LATEST");
    reader.#loop = reader.#run();
    return reader;
  }

  /** Stops reading after the round under way. */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#wake?.();
    await this.#loop;
    this.#streams.destroy();
  }

  async #run(): Promise<void> {
    while (!this.#stopped) {
      let read = 0;
      try {
        await this.#discover("TRIM_HORIZON");
        read = await this.#readRound();
      } catch (error) {
        if (this.#stopped) return;
        this.#options.onError?.(error);
      }
      if (read === 0) await this.#pause(this.#options.idleMs ?? 200);
    }
  }

  /** Adds shards not seen yet, positioned at `position`. */
  async #discover(position: "LATEST" | "TRIM_HORIZON"): Promise<void> {
    let start: string | undefined;
    do {
      const output = await this.#streams.send(
        new DescribeStreamCommand({ StreamArn: this.#streamArn, ExclusiveStartShardId: start }),
      );
      for (const shard of output.StreamDescription?.Shards ?? []) {
        const id = shard.ShardId;
        if (id === undefined || this.#shards.has(id)) continue;
        const closed = shard.SequenceNumberRange?.EndingSequenceNumber !== undefined;
        // At the start, a closed shard holds only records from before: nothing to deliver.
        if (position === "LATEST" && closed) {
          this.#shards.set(id, null);
          continue;
        }
        this.#shards.set(id, await this.#iteratorOf(id, position));
      }
      start = output.StreamDescription?.LastEvaluatedShardId;
    } while (start !== undefined);
  }

  /** Reads each open shard once; the number of records read. */
  async #readRound(): Promise<number> {
    let read = 0;
    for (const [id, iterator] of this.#shards) {
      if (iterator === null || this.#stopped) continue;
      let output: GetRecordsCommandOutput;
      try {
        output = await this.#getRecords(iterator);
      } catch (error) {
        if (!(error instanceof TrimmedDataAccessException)) throw error;
        const oldest = await this.#iteratorOf(id, "TRIM_HORIZON");
        this.#shards.set(id, oldest);
        if (oldest === null) continue;
        output = await this.#getRecords(oldest);
      }
      for (const record of output.Records ?? []) this.#options.onRecord(record);
      read += output.Records?.length ?? 0;
      this.#shards.set(id, output.NextShardIterator ?? null);
    }
    return read;
  }

  async #iteratorOf(shardId: string, position: "LATEST" | "TRIM_HORIZON"): Promise<string | null> {
    const output = await this.#streams.send(
      new GetShardIteratorCommand({
        StreamArn: this.#streamArn,
        ShardId: shardId,
        ShardIteratorType: position,
      }),
    );
    return output.ShardIterator ?? null;
  }

  #getRecords(iterator: string): Promise<GetRecordsCommandOutput> {
    return this.#streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: 1000 }));
  }

  #pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.#wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}
