# Firebase Auth emulator for the development overlay (the auth emulator needs no Java).
FROM node:24-bookworm-slim
RUN npm install -g firebase-tools@15 --no-audit --no-fund && npm cache clean --force
WORKDIR /emulator
RUN echo '{"emulators":{"auth":{"host":"0.0.0.0","port":9099},"ui":{"enabled":false},"singleProjectMode":true}}' > firebase.json \
  && chown -R node:node /emulator
ENV FIREBASE_CLI_DISABLE_UPDATE_CHECK=true NO_UPDATE_NOTIFIER=1
USER node
EXPOSE 9099
CMD ["firebase", "emulators:start", "--only", "auth", "--project", "demo-motoparts"]
