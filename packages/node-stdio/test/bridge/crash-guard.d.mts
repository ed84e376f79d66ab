export declare const CRASH_MARKER: string;
export declare const CRASH_EXIT_CODE: number;
