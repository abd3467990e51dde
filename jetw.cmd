@echo off
rem jetw launcher for Windows: every command-line tool of the project goes through here.
setlocal
set "HERE=%~dp0"
set "AGENT_JAR=%HERE%agent\dist\target\jetw-agent.jar"
if "%~1"=="" goto usage
if /I "%~1"=="help" goto usage
if /I "%~1"=="test" ( cd /d "%HERE%" & mvn -B -ntp verify & exit /b %ERRORLEVEL% )
if /I "%~1"=="build" ( cd /d "%HERE%" & mvn -B -q -ntp -DskipTests install & exit /b %ERRORLEVEL% )
if not exist "%AGENT_JAR%" (
  echo jetw: %AGENT_JAR% not built yet; run: jetw build 1>&2
  exit /b 2
)
java -jar "%AGENT_JAR%" %*
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
echo   etl summary^|dump^|tree^|chrome-trace FILE...   read .etl files
echo   mof                        print the MOF schema of jetw's events (for mofcomp)
echo   selftest [--dir FOLDER]    check this machine: trace a test workload, read it back, print a verdict per step
exit /b 0
