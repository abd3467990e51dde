@echo off
rem jetw launcher for Windows: every command-line tool of the project goes through here.
setlocal
set "HERE=%~dp0"
set "AGENT_JAR=%HERE%agent\dist\target\jetw-agent.jar"
if "%~1"=="" goto usage
if /I "%~1"=="help" goto usage
rem Each command runs on a line of its own and "exit /b %ERRORLEVEL%" follows on the next: cmd expands
rem %ERRORLEVEL% when it reads a line (or a whole parenthesized block), before the command on it has run.
rem mvn is mvn.cmd, a batch file: without "call" control would pass to it and never come back here.
if /I "%~1"=="test" goto test
rem build takes no arguments: its help must not start a build.
if /I "%~1"=="build" if /I "%~2"=="--help" goto usage
if /I "%~1"=="build" if /I "%~2"=="-h" goto usage
if /I "%~1"=="build" if not "%~2"=="" (
  echo jetw: build takes no arguments 1>&2
  exit /b 2
)
if /I "%~1"=="build" goto build
if not exist "%AGENT_JAR%" (
  echo jetw: %AGENT_JAR% not built yet; run: jetw build 1>&2
  exit /b 2
)
if /I "%~1"=="etl" goto etl
java -Djetw.launcher=jetw -jar "%AGENT_JAR%" %*
exit /b %ERRORLEVEL%
:test
cd /d "%HERE%"
call mvn -B -ntp verify
exit /b %ERRORLEVEL%
:build
cd /d "%HERE%"
call mvn -B -q -ntp -DskipTests install
exit /b %ERRORLEVEL%
:etl
rem The etl tools stream: a 256 MB heap keeps them under 512 MB RSS (docs/etl-tools.md); JETW_ETL_JAVA_OPTS overrides it.
if not defined JETW_ETL_JAVA_OPTS set "JETW_ETL_JAVA_OPTS=-Xmx256m"
java %JETW_ETL_JAVA_OPTS% -Djetw.launcher=jetw -jar "%AGENT_JAR%" %*
exit /b %ERRORLEVEL%
:usage
echo usage: jetw ^<command^> [args]
echo.
echo   test                       run the whole test suite (mvn verify)
echo   build                      build the agent jar
echo   attach ^<pid^> [options]     attach the agent to a running JVM
echo   detach ^<pid^>               remove all instrumentation and stop the session
echo   status ^<pid^>               session, instrumented methods, events written/lost, errors
echo   dump ^<pid^> [FILE]          write what the session holds now to a new .etl; tracing goes on
echo   list                       JVMs on this host
echo   etl summary^|dump^|tree^|methods^|why^|chrome-trace^|perfetto^|hot-methods FILE...   read .etl files
echo   mof                        print the MOF schema of jetw's events (for mofcomp)
echo   selftest [--dir FOLDER] [--backend auto^|windows^|portable]
echo                              check this machine: trace a test workload, read it back, print a verdict per step
exit /b 0
