import { texts } from "../../lib/texts";

export const auth = texts(
  {
    signInTitle: "Sign in",
    email: "E-mail",
    password: "Password",
    signIn: "Sign in",
    signingIn: "Signing in…",
    noAccount: "No account yet?",
    register: "Create an account",
    registerTitle: "Create an account",
    yourName: "Your name",
    passwordHint: "At least 12 characters.",
    haveAccount: "Already have an account?",
    forgotPassword: "Forgot your password?",
    checkMail: "We sent an activation link to {{email}}. Open it to finish.",
  },
  {
    signInTitle: "Вход",
    email: "Эл. почта",
    password: "Пароль",
    signIn: "Войти",
    signingIn: "Входим…",
    noAccount: "Ещё нет учётной записи?",
    register: "Зарегистрироваться",
    registerTitle: "Регистрация",
    yourName: "Ваше имя",
    passwordHint: "Не короче 12 символов.",
    haveAccount: "Уже есть учётная запись?",
    forgotPassword: "Забыли пароль?",
    checkMail: "Мы отправили ссылку для активации на {{email}}. Откройте её, чтобы закончить.",
  },
);
