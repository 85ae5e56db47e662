{-# LANGUAGE CPP #-}
-- An eventlog's non-moving collector events as GHC's own eventlog library (ghc-events)
-- reads them, one line each, tab-separated, times in nanoseconds:
--   census TIME BLOCK_SIZE ACTIVE FILLED LIVE   a size class at a census (event 207):
--                                               its block size in bytes, its active and
--                                               filled segments, its live blocks
--   pruned TIME PRUNED FREE                     segments pruned and free segments kept (208)
--   mark-begin TIME | mark-end TIME MARKED      the concurrent mark (200, 201)
--   sync-begin TIME | sync-end TIME             the synchronisation with the mutators (202, 203)
--   sweep-begin TIME | sweep-end TIME           the sweep (204, 205)
-- ghc-events before 0.20 keeps the block size as its log2 (GHC before 9.10 writes it so);
-- from 0.20 it keeps bytes whichever layout it read: bytes are printed either way.
-- The tests compare hpgraph's reading with this one, not with its own.
-- Build: ghc -O scripts/nonmoving-oracle.hs -o nonmoving-oracle (Debian:
-- libghc-ghc-events-dev; for GHC 9.10's eventlogs ghc-events 0.20: ../shared/tools/ghc-chroot sid's).
import GHC.RTS.Events
import Data.List (intercalate)
import System.Environment (getArgs)
import System.Exit (die)

main :: IO ()
main = do
  [file] <- getArgs
  r <- readEventLogFromFile file
  EventLog _ (Data events) <- either die return r
  mapM_ line events
  where
    line (Event t e _) = case e of
      NonmovingHeapCensus {} ->
        out [ "census", show t, show (blockBytes e), show (nonmovingCensusActiveSegs e)
            , show (nonmovingCensusFilledSegs e), show (nonmovingCensusLiveBlocks e) ]
#if MIN_VERSION_ghc_events(0,20,0)
      NonmovingPrunedSegments p f -> out ["pruned", show t, show p, show f]
#endif
      ConcMarkBegin -> out ["mark-begin", show t]
      ConcMarkEnd n -> out ["mark-end", show t, show n]
      ConcSyncBegin -> out ["sync-begin", show t]
      ConcSyncEnd -> out ["sync-end", show t]
      ConcSweepBegin -> out ["sweep-begin", show t]
      ConcSweepEnd -> out ["sweep-end", show t]
      _ -> return ()
    out = putStrLn . intercalate "\t"

blockBytes :: EventInfo -> Integer
#if MIN_VERSION_ghc_events(0,20,0)
blockBytes = fromIntegral . nonmovingCensusBlkSize
#else
blockBytes e = 2 ^ (fromIntegral (nonmovingCensusBlkSize e) :: Integer)
#endif
